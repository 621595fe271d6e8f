/* t_png.c: board.png, the board as a PNG picture for chat apps: every ruleset, the size
 * asked, ETag and 304, the width refusals, and the cache (one render per version). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hard.h"
#include "tests.h"

/* The width and height of the PNG in `r` (from its IHDR chunk); 0 when it is no PNG. */
static int png_size(const struct resp *r, unsigned long *w, unsigned long *h)
{
    static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    const unsigned char *p = (const unsigned char *)r->body;
    if (r->len < 33 || memcmp(p, sig, 8) != 0 || memcmp(p + 12, "IHDR", 4) != 0) return 0;
    *w = (unsigned long)p[16] << 24 | (unsigned long)p[17] << 16 | p[18] << 8 | p[19];
    *h = (unsigned long)p[20] << 24 | (unsigned long)p[21] << 16 | p[22] << 8 | p[23];
    return 1;
}

/* One board.png of every ruleset (classic played to its end), the size asked; 304. */
ITEST(test_board_png, "board.png: every ruleset, the width asked, ETag and 304")
{
    static const char *const setups[] = {
        "{\"ruleset\":\"classic\",\"players\":[{\"name\":\"A\"},{\"name\":\"B\"}],\"seed\":5}",
        PICTURE_GAMES,
    };
    char why[400];
    for (size_t i = 0; i < sizeof setups / sizeof setups[0]; i++) {
        struct game g;
        CHECK(game_new(srv, setups[i], &g, why, sizeof why) == 0, "%s", why);
        int turns = i == 0 ? 1000 : 4, done = 0;
        for (int t = 0; t < turns && !done; t++) {
            done = play_turn(srv, &g, 1, why, sizeof why);
            CHECK(done >= 0, "%s", why);
        }
        CHECK(i != 0 || done, "classic: not finished");
        char path[160];
        snprintf(path, sizeof path, "/v1/games/%s/board.png%s", g.id, i % 2 ? "?width=600" : "");
        unsigned long want_w = i % 2 ? 800 : 1200, w = 0, h = 0; /* 600 rounded up */
        struct resp r;
        http(srv, "GET", path, NULL, NULL, &r);
        int v = game_version(srv, &g);
        char want[32];
        snprintf(want, sizeof want, "\"%d\"", v);
        CHECK(r.status == 200 && strcmp(r.ctype, "image/png") == 0 && png_size(&r, &w, &h) &&
                  w == want_w && h > 0 && strcmp(r.etag, want) == 0 &&
                  strcmp(r.cache, "no-cache") == 0,
              "%s: %ld %s %s %lux%lu", setups[i], r.status, r.ctype, r.etag, w, h);
        resp_free(&r);
        char inm[64];
        snprintf(inm, sizeof inm, "If-None-Match: W/%s, \"x\"", want);
        const char *hdr[] = {inm, NULL};
        http(srv, "GET", path, NULL, hdr, &r);
        CHECK(r.status == 304 && r.len == 0 && strcmp(r.etag, want) == 0 &&
                  strcmp(r.cache, "no-cache") == 0,
              "304: %ld", r.status);
        resp_free(&r);
        if (i != 0) {
            /* A move later the picture is new. */
            CHECK(play_turn(srv, &g, 0, why, sizeof why) >= 0, "%s", why);
            http(srv, "GET", path, NULL, hdr, &r);
            CHECK(r.status == 200 && strcmp(r.etag, want) != 0 && png_size(&r, &w, &h) &&
                      w == want_w,
                  "after a move: %ld %s", r.status, r.etag);
            resp_free(&r);
        } else {
            /* The widest asked stays within the pixel bound (4096 x 2048), its shape kept. */
            snprintf(path, sizeof path, "/v1/games/%s/board.png?width=4096", g.id);
            http(srv, "GET", path, NULL, NULL, &r);
            CHECK(r.status == 200 && png_size(&r, &w, &h) && w <= 4096 && w * h <= 4096ul * 2048,
                  "width=4096: %ld %lux%lu", r.status, w, h);
            resp_free(&r);
            snprintf(path, sizeof path, "/v1/games/%s/board.png?width=64", g.id);
            http(srv, "GET", path, NULL, NULL, &r);
            CHECK(r.status == 200 && png_size(&r, &w, &h) && w == 64 && h > 0,
                  "width=64: %ld %lux%lu", r.status, w, h);
            resp_free(&r);
        }
    }
    expect_not_found(srv, "/v1/games/not-a-game/board.png");
}

/* Every width that is not a whole number from 64 to 4096 is refused, before the game. */
ITEST(test_board_png_refusals, "board.png: width refusals")
{
    struct game g;
    NEW_GAME(&g, "{\"ruleset\":\"classic\",\"players\":[{\"name\":\"A\"},{\"name\":\"B\"}]}");
    static const char *const bad[] = {"63",    "0",    "4097",   "99999999999999999999",
                                      "abc",   "",     "-600",   "600.5",
                                      "600px", "+600", "%20600", "1e3"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char path[200];
        snprintf(path, sizeof path, "/v1/games/%s/board.png?width=%s", g.id, bad[i]);
        struct resp r;
        http(srv, "GET", path, NULL, NULL, &r);
        CHECK(r.status == 400 && strcmp(problem_code(&r), "invalid_parameter") == 0,
              "width=%s: %ld %s", bad[i], r.status, problem_code(&r));
        resp_free(&r);
    }
    struct resp r;
    http(srv, "POST", "/v1/games/not-a-game/board.png", "{}", NULL, &r);
    CHECK(r.status == 405 && strcmp(r.allow, "GET") == 0, "POST: %ld", r.status);
    resp_free(&r);
}

/* A viewer of board.png on a thread of its own. */
struct viewer {
    const struct server *srv; /* where */
    const char *path;         /* what */
    pthread_t thread;         /* the thread */
    long status;              /* the answer's status */
    unsigned long w;          /* its width, 0 when no PNG */
    char code[40];            /* a problem's code, else "" */
    char retry_after[16];     /* its Retry-After, else "" */
    char ctype[64];           /* its Content-Type */
};

static void *view(void *arg)
{
    struct viewer *v = arg;
    struct resp r;
    unsigned long h;
    http(v->srv, "GET", v->path, NULL, NULL, &r);
    v->status = r.status;
    if (!png_size(&r, &v->w, &h)) v->w = 0;
    snprintf(v->code, sizeof v->code, "%s", r.status >= 400 ? problem_code(&r) : "");
    snprintf(v->retry_after, sizeof v->retry_after, "%s", r.retry_after);
    snprintf(v->ctype, sizeof v->ctype, "%s", r.ctype);
    resp_free(&r);
    return NULL;
}

/* Many viewers of one version cost one render: again later, and all at once. */
ITEST(test_board_png_cache, "board.png: one render per version and width, viewers at once included")
{
    struct game g;
    char why[400];
    NEW_GAME(&g, "{\"ruleset\":\"classic\",\"players\":[{\"name\":\"A\"},{\"name\":\"B\"}]}");
    CHECK(play_turn(srv, &g, 1, why, sizeof why) >= 0, "%s", why);
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s/board.png?width=700", g.id);
    long r0 = metric_count(srv, METRIC_PNG_RENDERED), c0 = metric_count(srv, METRIC_PNG_CACHED);
    CHECK(r0 >= 0 && c0 >= 0, "no board.png counters in /metrics");
    struct resp a, b;
    http(srv, "GET", path, NULL, NULL, &a);
    long r1 = metric_count(srv, METRIC_PNG_RENDERED);
    http(srv, "GET", path, NULL, NULL, &b);
    long r2 = metric_count(srv, METRIC_PNG_RENDERED), c2 = metric_count(srv, METRIC_PNG_CACHED);
    int same = a.status == 200 && b.status == 200 && a.len == b.len && a.len > 0 &&
               memcmp(a.body, b.body, a.len) == 0 && strcmp(a.etag, b.etag) == 0;
    resp_free(&a);
    resp_free(&b);
    CHECK(same, "the second answer differs from the first");
    CHECK(r1 == r0 + 1 && r2 == r1 && c2 == c0 + 1, "renders %ld %ld %ld, cached %ld %ld", r0, r1,
          r2, c0, c2);
    /* Widths are rounded up to a few sizes: 701 is drawn 800 wide as 700 was, from the
     * cache; 801 is another picture (1200 wide). */
    unsigned long w = 0, h = 0;
    snprintf(path, sizeof path, "/v1/games/%s/board.png?width=701", g.id);
    http(srv, "GET", path, NULL, NULL, &a);
    CHECK(a.status == 200 && png_size(&a, &w, &h) && w == 800, "width 701: %ld, %lu wide", a.status,
          w);
    resp_free(&a);
    CHECK(metric_count(srv, METRIC_PNG_RENDERED) == r2, "width 701 was rendered again");
    snprintf(path, sizeof path, "/v1/games/%s/board.png?width=801", g.id);
    http(srv, "GET", path, NULL, NULL, &a);
    CHECK(a.status == 200 && png_size(&a, &w, &h) && w == 1200, "width 801: %ld, %lu wide",
          a.status, w);
    resp_free(&a);
    CHECK(metric_count(srv, METRIC_PNG_RENDERED) == r2 + 1, "width 801 was not rendered");
    /* A move later: eight viewers at once of the new version, one render. */
    CHECK(play_turn(srv, &g, 0, why, sizeof why) >= 0, "%s", why);
    snprintf(path, sizeof path, "/v1/games/%s/board.png?width=900", g.id);
    long r3 = metric_count(srv, METRIC_PNG_RENDERED);
    struct viewer v[8];
    for (int i = 0; i < 8; i++) {
        v[i] = (struct viewer){.srv = srv, .path = path};
        CHECK(pthread_create(&v[i].thread, NULL, view, &v[i]) == 0, "pthread_create");
    }
    int ok = 1;
    for (int i = 0; i < 8; i++) {
        pthread_join(v[i].thread, NULL);
        ok &= v[i].status == 200 && v[i].w == 1200;
    }
    CHECK(ok, "a viewer got no picture of 1200 pixels (900 rounded up)");
    long r4 = metric_count(srv, METRIC_PNG_RENDERED);
    CHECK(r4 == r3 + 1, "eight viewers at once: %ld renders", r4 - r3);
}

/* A viewer that waits for a render slot in vain: a server whose pictures do not wait for a
 * slot at all (BOARD_PNG_WAIT_MS=0), eight viewers at once (one address, widths that
 * round to one size: the same picture, or the address already renders one),
 * two render slots: the ones without a slot are answered 503 render_busy with Retry-After
 * at once, the others get their picture. */
ITEST(test_board_png_busy,
      "board.png: no render slot within BOARD_PNG_WAIT_MS: 503 render_busy, Retry-After")
{
    HARD_SERVER(z, 1, "BOARD_PNG_WAIT_MS=0", "THREADS=8");
    struct server *zs = &z;
    struct game g;
    char why[400];
    if (game_new(zs, "{\"ruleset\":\"classic\",\"players\":[{\"name\":\"A\"},{\"name\":\"B\"}]}",
                 &g, why, sizeof why)) {
        hard_server_stop(&z);
        CHECK(0, "%s", why);
    }
    for (int t = 0; t < 6; t++)
        if (play_turn(zs, &g, t % 2, why, sizeof why) < 0) break;
    int busy = 0, pictures = 0, bad = 0;
    char what[1400] = "";
    for (int round = 0; round < 6 && !busy; round++) {
        enum { N = 8 };
        char paths[N][160];
        struct viewer v[N];
        for (int i = 0; i < N; i++) {
            snprintf(paths[i], sizeof paths[i], "/v1/games/%s/board.png?width=%d", g.id,
                     1600 - round * N - i);
            v[i] = (struct viewer){.srv = zs, .path = paths[i]};
            if (pthread_create(&v[i].thread, NULL, view, &v[i])) v[i].thread = 0;
        }
        for (int i = 0; i < N; i++) {
            if (v[i].thread) pthread_join(v[i].thread, NULL);
            if (v[i].status == 200 && v[i].w > 0)
                pictures++;
            else if (v[i].status == 503 && strcmp(v[i].code, "render_busy") == 0 &&
                     strcmp(v[i].retry_after, "2") == 0 &&
                     strcmp(v[i].ctype, "application/problem+json") == 0)
                busy++;
            else if (!bad++)
                snprintf(what, sizeof what, "%s: %ld %s, Retry-After \"%s\", %s", paths[i],
                         v[i].status, v[i].code, v[i].retry_after, v[i].ctype);
        }
    }
    int st = hard_server_stop(&z);
    printf("  board.png busy: %d pictures, %d answered 503 render_busy\n", pictures, busy);
    CHECK(!bad, "%d answers neither a picture nor 503 render_busy with Retry-After 2 (%s)", bad,
          what);
    CHECK(busy > 0, "no viewer of %d was answered 503 with no slot to wait for", pictures);
    CHECK(pictures > 0, "no picture at all");
    CHECK(st == 0, "server exit %d", st);
}
