/* t_analysis.c: GET /v1/games/{id}/analysis (issue 31, item 3): a finished game is answered
 * 202 with Retry-After, then 200 with one entry per placement; a game in play 409, an
 * unknown game 404; two servers asked at once analyse a game once; a run leased by a dead
 * server is taken by another once the lease has run out. The games are short (SHORT_DECK),
 * so that the server's default budget takes well under a second. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db.h"
#include "hard.h"
#include "tests.h"

/* A finished game of two computer players on the short deck, of seed `seed`. */
static int finished_game(const struct server *srv, int seed, struct game *g, char *why, size_t cap)
{
    char body[400];
    snprintf(body, sizeof body,
             "{\"players\":[{\"bot\":\"greedy\"},{\"bot\":\"random\"}],\"seed\":%d," SHORT_DECK "}",
             seed);
    if (game_new(srv, body, g, why, cap)) return -1;
    if (game_wait_finished(srv, g->id, 30000)) return 0;
    snprintf(why, cap, "the computer players did not finish game %s", g->id);
    return -1;
}

/* GET the analysis of `id` from `srv` into `r` (resp_free it). */
static void get_analysis(const struct server *srv, const char *id, struct resp *r)
{
    char path[128];
    snprintf(path, sizeof path, "/v1/games/%s/analysis", id);
    http(srv, "GET", path, NULL, NULL, r);
}

/* Asks every 50 ms for up to `limit_ms` until the answer is 200: its body (cJSON_Delete),
 * or NULL. */
static cJSON *wait_analysis(const struct server *srv, const char *id, long limit_ms)
{
    long long end = hard_now_ms() + limit_ms;
    while (hard_now_ms() < end) {
        struct resp r;
        get_analysis(srv, id, &r);
        cJSON *j = r.status == 200 ? cJSON_Parse(r.body) : NULL;
        resp_free(&r);
        if (j) return j;
        usleep(50000);
    }
    return NULL;
}

/* Times game `id` was analysed (0036 runs), 0 when it was not. */
static long runs_of(const char *id)
{
    return db_scalar_id("SELECT coalesce((SELECT runs FROM game_analysis WHERE game_id = "
                        "$1::uuid), 0)",
                        id);
}

ITEST(test_analysis, "analysis: 202 then 200 with every placement reviewed; in play 409; 404")
{
    struct game g;
    char why[400];
    CHECK(finished_game(srv, 31, &g, why, sizeof why) == 0, "%s", why);
    struct resp r;
    long long t0 = hard_now_ms();
    get_analysis(srv, g.id, &r);
    cJSON *pending = cJSON_Parse(r.body);
    int ok = r.status == 202 && strcmp(r.retry_after, "2") == 0 &&
             strcmp(jstr(pending, "status"), "pending") == 0;
    cJSON_Delete(pending);
    long status = r.status;
    resp_free(&r);
    CHECK(ok, "the first request answered %ld, not 202 pending with Retry-After 2", status);
    cJSON *a = wait_analysis(srv, g.id, 30000);
    long long took = hard_now_ms() - t0;
    CHECK(a, "no analysis after 30 s");
    long places = db_scalar_id("SELECT count(*) FROM actions WHERE game_id = $1::uuid AND kind = "
                               "'place'",
                               g.id);
    const cJSON *list = jget(a, "placements"), *m;
    int n = cJSON_GetArraySize(list), bad = 0, per_seat = 0;
    cJSON_ArrayForEach(m, list)
    {
        bad += jnum(m, "loss") < 0 || jnum(m, "best_margin") < jnum(m, "played_margin") ||
               !jget(m, "best") || !*jstr(m, "label");
    }
    const cJSON *seat;
    cJSON_ArrayForEach(seat, jget(a, "seats")) per_seat += (int)jnum(seat, "placements");
    char *first = cJSON_PrintUnformatted(a);
    cJSON_Delete(a);
    CHECK(places > 5 && n == places, "%d entries for %ld placements", n, places);
    CHECK(per_seat == n, "the seats count %d placements of %d", per_seat, n);
    CHECK(!bad, "%d entries with a loss below 0, a best below the played or no label", bad);
    CHECK(runs_of(g.id) == 1, "analysed %ld times", runs_of(g.id));
    CHECK(db_scalar_id("SELECT count(*) FROM jobs WHERE game_id = $1::uuid AND kind = 'analysis'",
                       g.id) == 0,
          "the job is left after the analysis was stored");
    /* Asked again: the same body, and no new job. */
    cJSON *again = wait_analysis(srv, g.id, 1000);
    char *second = again ? cJSON_PrintUnformatted(again) : NULL;
    cJSON_Delete(again);
    ok = second && strcmp(first, second) == 0;
    free(first);
    free(second);
    CHECK(ok, "asked again, the analysis changed");
    /* A game in play, and no such game. */
    NEW_GAME(&g, "{\"players\":[{\"name\":\"A\"},{\"name\":\"B\"}],\"seed\":3}");
    get_analysis(srv, g.id, &r);
    ok = r.status == 409 && strstr(r.body, "game_not_finished");
    resp_free(&r);
    CHECK(ok, "a game in play was not refused with 409 game_not_finished");
    CHECK(db_scalar_id("SELECT count(*) FROM jobs WHERE game_id = $1::uuid AND kind = 'analysis'",
                       g.id) == 0,
          "a game in play got an analysis job");
    get_analysis(srv, "00000000-0000-4000-8000-000000000031", &r);
    status = r.status;
    resp_free(&r);
    CHECK(status == 404, "an unknown game answered %ld", status);
    printf("  analysis of a %ld-placement game: 200 after %lld ms\n", places, took);
}

ITEST(test_analysis_servers, "analysis: two servers asked at once analyse once; a dead server's "
                             "lease runs out and another runs it")
{
    struct server x = {0};
    CHECK(hard_server_start(&x, NULL, 0) == 0, "the second server did not start");
    struct game g;
    char why[400];
    int rc = finished_game(srv, 32, &g, why, sizeof why);
    struct resp r1, r2;
    if (rc == 0) {
        get_analysis(srv, g.id, &r1);
        get_analysis(&x, g.id, &r2);
    }
    cJSON *a = rc == 0 ? wait_analysis(&x, g.id, 30000) : NULL, *b = NULL;
    if (a) b = wait_analysis(srv, g.id, 5000);
    int same = a && b && cJSON_Compare(a, b, 1);
    cJSON_Delete(a);
    cJSON_Delete(b);
    (void)hard_server_stop(&x);
    CHECK(rc == 0, "%s", why);
    long s1 = r1.status, s2 = r2.status;
    resp_free(&r1);
    resp_free(&r2);
    /* The second ask may find the analysis done already (a short game, a small budget). */
    CHECK(s1 == 202 && (s2 == 202 || s2 == 200), "the first requests answered %ld and %ld", s1, s2);
    CHECK(same, "the two servers do not answer the same analysis");
    CHECK(runs_of(g.id) == 1, "analysed %ld times by two servers", runs_of(g.id));

    /* A dead server's claim: a server without workers plans the job while the runner's
     * server is paused, and the job is leased for 5 s as a claim would; the runner's
     * server must wait for the lease to end, then run it once. The look at 0.9 s is timed
     * from the lease, not from x's stop (a drain, and under a sanitizer its leak check). */
    static const char *const env[] = {"BOT_WORKERS=0", NULL};
    CHECK(finished_game(srv, 33, &g, why, sizeof why) == 0, "%s", why);
    CHECK(hard_server_start(&x, env, 0) == 0, "the server without workers did not start");
    kill(srv->pid, SIGSTOP);
    get_analysis(&x, g.id, &r1);
    long leased = db_job_lease(g.id, "analysis", 5000);
    long long t0 = hard_now_ms();
    kill(srv->pid, SIGCONT);
    (void)hard_server_stop(&x);
    s1 = r1.status;
    resp_free(&r1);
    CHECK(s1 == 202 && leased == 1, "no analysis job planned (%ld, %ld)", s1, leased);
    hard_sleep_until(t0 + 900);
    long early = runs_of(g.id);
    long long waited = hard_now_ms() - t0;
    CHECK(waited < 4500, "x took %lld ms to stop: the lease is nearly out, nothing to see", waited);
    a = wait_analysis(srv, g.id, 30000);
    long long took = hard_now_ms() - t0;
    int got = a != NULL;
    cJSON_Delete(a);
    CHECK(early == 0, "analysed while another server held the job");
    CHECK(got, "the leased analysis was never run");
    CHECK(runs_of(g.id) == 1, "the leased analysis ran %ld times", runs_of(g.id));
    printf("  a leased analysis: stored %lld ms after a 5000 ms lease began\n", took);
}
