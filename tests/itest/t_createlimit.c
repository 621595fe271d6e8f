/* t_createlimit.c: the creation limit per address (CREATE_LIMIT_PER_MINUTE, CREATE_BURST):
 * on by default; a flood of creations from one address gets 429 with Retry-After while
 * health checks and game reads stay quick; after Retry-After, creation works again.
 * The itests' own servers run with it off (mk/api.mk ITEST_ENV); these start servers of
 * their own. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db.h"
#include "hard.h"
#include "tests.h"

#define CL_GAME         "{\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"}]}"
#define CL_TRIES        200 /* creations at most before a 429 must have come */
#define CL_QUICK_MS     100 /* reads are answered this soon during a flood of creations */
#define CL_QUICK_SAN_MS 500 /* the same for a server under a sanitizer, several times slower */

static const char *const cl_json[] = {"Content-Type: application/json", NULL};

/* A creation straight to `srv`; fills `r`. */
static void cl_create(const struct server *srv, struct resp *r)
{
    hard_send(srv, VIA_DIRECT, "POST", "/v1/games", CL_GAME, strlen(CL_GAME), cl_json, r);
}

/* Creates games on `srv` until one is refused; returns how many were created first (-1:
 * an answer other than 201 and 429, or no 429 within CL_TRIES; described in `why`), with
 * the refusal in `r` (to free). */
static int cl_until_refused(const struct server *srv, struct resp *r, char *why, size_t cap)
{
    for (int i = 0; i < CL_TRIES; i++) {
        cl_create(srv, r);
        if (r->status == 429) return i;
        if (r->status != 201) {
            snprintf(why, cap, "creation %d answered %ld: %.200s", i, r->status, r->body);
            resp_free(r);
            return -1;
        }
        resp_free(r);
    }
    memset(r, 0, sizeof *r);
    snprintf(why, cap, "no 429 after %d creations", CL_TRIES);
    return -1;
}

/* A flood of creations on another thread while the test measures other requests. */
struct cl_flood {
    const struct server *srv; /* where */
    atomic_int stop;          /* set to end it */
    long sent, refused;       /* creations sent, answered 429 */
};

static void *cl_flood_main(void *p)
{
    struct cl_flood *f = p;
    while (!atomic_load(&f->stop)) {
        struct resp r;
        cl_create(f->srv, &r);
        f->sent++;
        f->refused += r.status == 429;
        resp_free(&r);
    }
    return NULL;
}

ITEST(test_create_limit, "creation limit: 429 with Retry-After per address, on by default")
{
    char why[400] = "";
    /* On by default (CREATE_BURST 30): a server without the variables refuses soon. */
    HARD_SERVER(d, 0, "CREATE_LIMIT_PER_MINUTE=", "CREATE_BURST=");
    struct resp r;
    long long t_default = hard_now_ms();
    int made_default = cl_until_refused(&d, &r, why, sizeof why);
    long long default_ms = hard_now_ms() - t_default;
    long default_retry = strtol(r.retry_after, NULL, 10);
    resp_free(&r);
    int code_default = hard_server_stop(&d);
    /* 30 at once, and the 2 a second that came back while they were made (a sanitizer's
     * server on a busy machine makes them slowly). */
    int most_default = 30 + 2 * (int)(default_ms / 1000) + 2;
    CHECK(made_default >= 30 && made_default <= most_default,
          "with the defaults: %d created before the first 429 (30 to %d expected) %s", made_default,
          most_default, why);
    CHECK(default_retry >= 1 && default_retry <= 2, "with the defaults: Retry-After %ld",
          default_retry);
    CHECK(code_default == 0, "the server with the defaults exited with status %d", code_default);

    /* A low limit of its own: 5 at once, 1 a second; behind the spec proxy, so that the
     * 429 of POST /v1/games is checked against openapi.yaml. */
    HARD_SERVER(z, 1, "CREATE_LIMIT_PER_MINUTE=60", "CREATE_BURST=5");
    struct game g;
    int have_game = game_new(&z, CL_GAME, &g, why, sizeof why) == 0;
    long long t0 = hard_now_ms();
    int made = have_game ? cl_until_refused(&z, &r, why, sizeof why) : -1;
    /* At most the burst less the game above, and the tokens that came back meanwhile. */
    int most = 4 + (int)((hard_now_ms() - t0) / 1000) + 1;
    int retry = (int)strtol(r.retry_after, NULL, 10);
    int good_problem = r.status == 429 && strcmp(problem_code(&r), "rate_limited") == 0 &&
                       strcmp(r.ctype, "application/problem+json") == 0;
    resp_free(&r);
    /* Through the proxy too (its answer is checked against the spec). */
    http(&z, "POST", "/v1/games", CL_GAME, NULL, &r);
    long proxied = r.status;
    resp_free(&r);
    /* While one client floods creations, the others are served at once: each of 20 reads
     * (/healthz and the game, in turn) within CL_QUICK_MS, at one of 3 tries at most (a
     * server held up by the flood would miss all three; a busy machine now and then one). */
    long long quick_ms = hard_san_ms(CL_QUICK_MS, CL_QUICK_SAN_MS);
    static struct cl_flood flood;
    memset(&flood, 0, sizeof flood);
    flood.srv = &z;
    pthread_t flood_thread;
    int flooding = pthread_create(&flood_thread, NULL, cl_flood_main, &flood) == 0;
    long long slowest = 0, fastest_slow = 0; /* of every try; of the best tries of the reads */
    int served = 0, asked = 0, quick = 0, tries = 0;
    char path[128];
    snprintf(path, sizeof path, "/v1/games/%s", g.id);
    for (int i = 0; have_game && i < 20; i++) {
        const char *what = i % 2 ? path : "/healthz";
        long long best = -1;
        for (int k = 0; k < 3 && (best < 0 || best >= quick_ms); k++) {
            long long t = hard_now_ms();
            hard_send(&z, VIA_DIRECT, "GET", what, NULL, 0, NULL, &r);
            long long ms = hard_now_ms() - t;
            tries++;
            if (ms > slowest) slowest = ms;
            asked++;
            served += r.status == 200;
            if (r.status == 200 && (best < 0 || ms < best)) best = ms;
            resp_free(&r);
        }
        if (best >= 0 && best < quick_ms) quick++;
        if (best > fastest_slow) fastest_slow = best;
        usleep(20000);
    }
    atomic_store(&flood.stop, 1);
    if (flooding) pthread_join(flood_thread, NULL);
    /* After the Retry-After of a refusal that comes after the flood, creation works. */
    int made_after = cl_until_refused(&z, &r, why, sizeof why);
    int retry_after = (int)strtol(r.retry_after, NULL, 10);
    resp_free(&r);
    sleep((unsigned)(retry_after >= 1 && retry_after <= 5 ? retry_after : 1));
    cl_create(&z, &r);
    long after_wait = r.status;
    resp_free(&r);
    int code = hard_server_stop(&z);
    printf("  creation limit: defaults: %d created, then 429 (Retry-After %ld); CREATE_BURST=5: "
           "%d created, then 429 (Retry-After %d); a flood of %ld creations (%ld refused) "
           "meanwhile; 20 reads (/healthz, the game) in %d tries, %d within %lld ms, the slowest "
           "try %lld ms, the slowest best try %lld ms\n",
           made_default, default_retry, made, retry, flood.sent, flood.refused, tries, quick,
           quick_ms, slowest, fastest_slow);
    CHECK(have_game, "%s", why);
    CHECK(made >= 4 && made <= most, "%d created before the first 429 (4 to %d expected) %s", made,
          most, why);
    CHECK(good_problem, "the 429 was not a rate_limited problem");
    CHECK(retry >= 1 && retry <= 2, "Retry-After %d", retry);
    CHECK(proxied == 429, "through the proxy: %ld", proxied);
    CHECK(flooding && flood.refused > 0, "the flood was not refused (%ld of %ld)", flood.refused,
          flood.sent);
    CHECK(served == asked, "%d of %d reads answered 200 during the flood", served, asked);
    CHECK(quick == 20, "%d of 20 reads answered within %lld ms (in 3 tries) during the flood",
          quick, quick_ms);
    CHECK(made_after >= 0 && made_after <= 1 && retry_after >= 1,
          "after the flood: %d created, then Retry-After %d %s", made_after, retry_after, why);
    CHECK(after_wait == 201, "after Retry-After: %ld", after_wait);
    CHECK(code == 0, "the server exited with status %d", code);
}

/* POST /v1/games/{id}/<what> on `srv` with the header `auth` and no body: into `r`. */
static void cl_post(const struct server *srv, const char *id, const char *what, const char *auth,
                    struct resp *r)
{
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s/%s", id, what);
    const char *h[2] = {auth, NULL};
    http(srv, "POST", path, NULL, h, r);
}

/* Issue 29, item 5: a resign + rematch chain made thousands of games after the address's
 * 429. Every rematch that creates a game counts against the creation limit; asking again
 * for a rematch created already creates nothing and is not refused. */
ITEST(test_create_limit_rematch,
      "creation limit: every rematch created counts (a resign + rematch chain gets 429)")
{
    char why[400] = "";
    /* 5 at once, then one every 10 s: none comes back during the test. */
    HARD_SERVER(z, 1, "CREATE_LIMIT_PER_MINUTE=6", "CREATE_BURST=5");
    struct game g;
    int have_game = game_new(&z, CL_GAME, &g, why, sizeof why) == 0;
    char id[64], auth[200];
    snprintf(id, sizeof id, "%s", g.id);
    snprintf(auth, sizeof auth, "%s", g.auth[0]);
    int made = 0, refused = 0, retry = 0, good_problem = 0;
    long unexpected = 0;
    struct resp r;
    for (int i = 0; have_game && i < 20 && !refused && !unexpected; i++) {
        cl_post(&z, id, "resign", auth, &r);
        if (r.status != 200) unexpected = r.status;
        resp_free(&r);
        if (unexpected) break;
        cl_post(&z, id, "rematch", auth, &r);
        if (r.status == 201 && r.json) {
            made++;
            snprintf(id, sizeof id, "%s", jstr(r.json, "id"));
            snprintf(auth, sizeof auth, "Authorization: Bearer %s", jstr(r.json, "token"));
        } else if (r.status == 429) {
            refused = 1;
            retry = (int)strtol(r.retry_after, NULL, 10);
            good_problem = strcmp(problem_code(&r), "rate_limited") == 0 &&
                           strcmp(r.ctype, "application/problem+json") == 0;
        } else {
            unexpected = r.status;
        }
        resp_free(&r);
    }
    /* The refused rematch stored nothing. */
    long stored =
        refused ? db_scalar_id("SELECT count(*) FROM games WHERE rematch_of = $1::uuid", id) : -1;
    /* The other seat of the first game asks for the rematch made already: no creation, so
     * no refusal though the limit is spent. */
    long again = 0;
    if (have_game) {
        cl_post(&z, g.id, "rematch", g.auth[1], &r);
        again = r.status;
        resp_free(&r);
    }
    int code = hard_server_stop(&z);
    printf("  creation limit: a resign + rematch chain: %d rematches created after the first "
           "game, then 429 (Retry-After %d); a rematch created already answered %ld\n",
           made, retry, again);
    CHECK(have_game, "%s", why);
    CHECK(!unexpected, "an unexpected answer %ld in the chain", unexpected);
    CHECK(refused, "no 429 in a chain of %d rematches (CREATE_BURST=5)", made);
    CHECK(made == 4,
          "%d rematches created before the first 429 (4 expected: the burst less "
          "the first game)",
          made);
    CHECK(good_problem, "the 429 was not a rate_limited problem");
    CHECK(retry >= 1, "Retry-After %d", retry);
    CHECK(stored == 0, "the refused rematch stored %ld games", stored);
    CHECK(again == 200, "a rematch made already answered %ld while the limit was spent", again);
    CHECK(code == 0, "the server exited with status %d", code);
}

/* POST `path` with `body` straight to `srv` with Idempotency-Key `key`; fills `r`. */
static void cl_keyed(const struct server *srv, const char *path, const char *body, const char *key,
                     struct resp *r)
{
    char kh[120];
    snprintf(kh, sizeof kh, "Idempotency-Key: %s", key);
    const char *h[] = {"Content-Type: application/json", kh, NULL};
    hard_send(srv, VIA_DIRECT, "POST", path, body, strlen(body), h, r);
}

ITEST(test_create_limit_keyed_repeat,
      "creation limit: a keyed repeat of a game's or a player's creation takes no token and "
      "gets the first answer while the limit is spent")
{
    /* 3 at once, then one every 10 s: none comes back during the test. */
    HARD_SERVER(z, 1, "CREATE_LIMIT_PER_MINUTE=6", "CREATE_BURST=3");
    const char *game_key = "keyed-repeat-game-0123456789abcdef0123",
               *player_key = "keyed-repeat-player-0123456789abcdef01";
    const char *player = "{\"name\":\"Keyed Repeat\"}";
    struct resp g1, p1, g2, p2, fresh, r;
    char why[400] = "";
    cl_keyed(&z, "/v1/games", CL_GAME, game_key, &g1);
    cl_keyed(&z, "/v1/players", player, player_key, &p1);
    /* The third token, then 429: the limit is spent. */
    int made = cl_until_refused(&z, &r, why, sizeof why);
    resp_free(&r);
    /* The repeats: the first answers again, byte for byte, no token asked. */
    cl_keyed(&z, "/v1/games", CL_GAME, game_key, &g2);
    cl_keyed(&z, "/v1/players", player, player_key, &p2);
    /* A new key is a new creation: refused, and it binds nothing. */
    cl_keyed(&z, "/v1/games", CL_GAME, "keyed-repeat-fresh-0123456789abcdef012", &fresh);
    long people = db_scalar("SELECT count(*) FROM people WHERE name = 'Keyed Repeat'");
    int code = hard_server_stop(&z);
    int same_game =
        g1.status == 201 && g2.status == 201 && g1.body && g2.body && strcmp(g1.body, g2.body) == 0;
    int same_player =
        p1.status == 201 && p2.status == 201 && p1.body && p2.body && strcmp(p1.body, p2.body) == 0;
    long g2_status = g2.status, p2_status = p2.status, fresh_status = fresh.status;
    resp_free(&g1);
    resp_free(&g2);
    resp_free(&p1);
    resp_free(&p2);
    resp_free(&fresh);
    CHECK(made == 1,
          "%d unkeyed creations before the 429 (1 expected: the burst of 3 less the "
          "two keyed) %s",
          made, why);
    CHECK(same_game, "the keyed game's repeat answered %ld, not the first answer", g2_status);
    CHECK(same_player, "the keyed player's repeat answered %ld, not the first answer", p2_status);
    CHECK(fresh_status == 429, "a new key with the limit spent: %ld", fresh_status);
    CHECK(people == 1, "%ld players stored for one keyed creation and its repeat", people);
    CHECK(code == 0, "the server exited with status %d", code);
}

/* Issue 29, item 10: a replay stores a whole game's events at once (about 190 KB for a long
 * one) for one creation; it weighs one creation per GAME_LIMIT_BYTES (4 KB) it stores. */
ITEST(test_create_limit_replay, "creation limit: a replay weighs what it stores")
{
    char why[400] = "";
    /* 100 at once, then one every 10 s: none comes back during the test. */
    HARD_SERVER(z, 1, "CREATE_LIMIT_PER_MINUTE=6", "CREATE_BURST=100");
    struct game g;
    int have_game =
        game_new(&z,
                 "{\"players\":[{\"bot\":\"greedy\",\"think_ms\":10},{\"bot\":\"greedy\","
                 "\"think_ms\":10}],\"seed\":31}",
                 &g, why, sizeof why) == 0;
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s", g.id);
    int finished = 0;
    for (int i = 0; have_game && i < 600 && !finished; i++) {
        cJSON *j = get_json(&z, path);
        finished = j && strcmp(jstr(j, "status"), "finished") == 0;
        cJSON_Delete(j);
        if (!finished) usleep(50000);
    }
    char *body = NULL;
    struct resp r;
    if (finished) {
        snprintf(path, sizeof path, "/v1/games/%s/export", g.id);
        http(&z, "GET", path, NULL, NULL, &r);
        cJSON *wrap = cJSON_CreateObject();
        if (r.status == 200 && r.json)
            cJSON_AddItemToObject(wrap, "replay", cJSON_Duplicate(r.json, 1));
        body = r.status == 200 ? cJSON_PrintUnformatted(wrap) : NULL;
        cJSON_Delete(wrap);
        resp_free(&r);
    }
    int made = 0, refused = 0, retry = 0, good_problem = 0;
    long unexpected = 0, stored_bytes = 0;
    for (int i = 0; body && i < 120 && !refused && !unexpected; i++) {
        http(&z, "POST", "/v1/games", body, NULL, &r);
        if (r.status == 201 && r.json) {
            made++;
            if (made == 1) {
                const char *vals[1] = {jstr(r.json, "id")};
                stored_bytes = db_scalar_params(
                    "SELECT (SELECT coalesce(sum(length(payload::text)), 0) FROM events WHERE "
                    "game_id = $1::uuid) + (SELECT coalesce(sum(length(body::text)), 0) FROM "
                    "actions WHERE game_id = $1::uuid)",
                    1, vals);
            }
        } else if (r.status == 429) {
            refused = 1;
            retry = (int)strtol(r.retry_after, NULL, 10);
            good_problem = strcmp(problem_code(&r), "rate_limited") == 0;
        } else {
            unexpected = r.status;
        }
        resp_free(&r);
    }
    free(body);
    int code = hard_server_stop(&z);
    printf("  creation limit: replays of a whole game (about %ld bytes of events and actions "
           "stored each): %d created from a burst of 100 less the first game, then 429 "
           "(Retry-After %d)\n",
           stored_bytes, made, retry);
    CHECK(have_game, "%s", why);
    CHECK(finished, "the bot game did not finish");
    CHECK(!unexpected, "a replay answered %ld", unexpected);
    CHECK(refused, "no 429 after %d replays", made);
    CHECK(good_problem, "the 429 was not a rate_limited problem");
    CHECK(retry >= 1, "Retry-After %d", retry);
    /* Weighed by size: each at least stored / 4 KB creations (before: one each, 99 made). */
    long weight = stored_bytes / 4096;
    CHECK(weight >= 5, "a replay stored only %ld bytes", stored_bytes);
    CHECK(made >= 1 && made <= 99 / (weight > 1 ? weight - 1 : 1),
          "%d replays created from 99 creations left (each stores %ld bytes)", made, stored_bytes);
    CHECK(code == 0, "the server exited with status %d", code);
}
