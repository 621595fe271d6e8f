/* t_client.c: what client authors asked for (issue 14): past versions (?version=N on the
 * game, board.svg and board.png), /events pages (limit, has_more, status), and what comes
 * next in a placement's answer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tests.h"

#define MAX_VERSIONS 200 /* versions a test game keeps the answers of */

/* The version an ETag "N" names, or -1. */
static int etag_version(const char *etag)
{
    char *end = NULL;
    long v = etag[0] == '"' ? strtol(etag + 1, &end, 10) : -1;
    return end && *end == '"' && v > 0 && v < 1000000 ? (int)v : -1;
}

/* GETs `path` with optional header `h1` into `r`. */
static void get1(const struct server *srv, const char *path, const char *h1, struct resp *r)
{
    const char *h[] = {h1, NULL};
    http(srv, "GET", path, NULL, h1 ? h : NULL, r);
}

/* Past versions of games of every ruleset: each version's answer is the one the game
 * gave when it stood there, byte for byte (state and board.svg), with its ETag, a long
 * cache and 304; board.png of a past version; the refusals. */
ITEST(test_past_versions,
      "past versions: ?version=N on the game, board.svg and board.png, as they stood")
{
    static const char *const setups[] = {
        "{\"ruleset\":\"classic\",\"players\":[{\"name\":\"A\"},{\"name\":\"B\"}],\"seed\":5}",
        PICTURE_GAMES,
        "{\"ruleset\":\"discovery\",\"options\":{\"draw\":\"hand\"},\"players\":[{\"name\":\"A\"},"
        "{\"name\":\"B\"},{\"name\":\"C\"}]}",
    };
    char why[400], path[200];
    char **state = calloc(MAX_VERSIONS, sizeof *state), **svg = calloc(MAX_VERSIONS, sizeof *svg);
    CHECK(state && svg, "out of memory");
    for (size_t i = 0; i < sizeof setups / sizeof setups[0]; i++) {
        struct game g;
        CHECK(game_new(srv, setups[i], &g, why, sizeof why) == 0, "%s", why);
        /* Play (classic to its end, the others 30 actions), keeping every version's answers. */
        int v = 0, done = 0;
        for (int a = 0; a < (i == 0 ? 1000 : 30); a++) {
            struct resp r;
            snprintf(path, sizeof path, "/v1/games/%s", g.id);
            http(srv, "GET", path, NULL, NULL, &r);
            v = etag_version(r.etag);
            CHECK(r.status == 200 && v > 0 && v < MAX_VERSIONS && !state[v], "GET: %ld %s",
                  r.status, r.etag);
            state[v] = r.body;
            r.body = NULL;
            resp_free(&r);
            snprintf(path, sizeof path, "/v1/games/%s/board.svg", g.id);
            http(srv, "GET", path, NULL, NULL, &r);
            CHECK(r.status == 200, "svg: %ld", r.status);
            svg[v] = r.body;
            r.body = NULL;
            resp_free(&r);
            if (done) break; /* the finished game's version is kept too */
            done = play_move(srv, &g, 1, 1, why, sizeof why);
            CHECK(done >= 0, "%s: %s", setups[i], why);
        }
        CHECK(i != 0 || done, "classic: not finished");
        for (int n = 1; n <= v; n++) {
            char etag[24], inm[48];
            snprintf(etag, sizeof etag, "\"%d\"", n);
            snprintf(inm, sizeof inm, "If-None-Match: %s", etag);
            struct resp r;
            snprintf(path, sizeof path, "/v1/games/%s?version=%d", g.id, n);
            get1(srv, path, NULL, &r);
            CHECK(r.status == 200 && strcmp(r.body, state[n]) == 0 && strcmp(r.etag, etag) == 0 &&
                      strstr(r.cache, "immutable"),
                  "%.120s: %ld %s %.40s\n%.100s\n%.100s", path, r.status, r.etag, r.cache, r.body,
                  state[n]);
            resp_free(&r);
            get1(srv, path, inm, &r);
            CHECK(r.status == 304 && strcmp(r.etag, etag) == 0 && strstr(r.cache, "immutable"),
                  "%s 304: %ld", path, r.status);
            resp_free(&r);
            if (n % 7 != 1 && n != v) continue;
            snprintf(path, sizeof path, "/v1/games/%s/board.svg?version=%d", g.id, n);
            get1(srv, path, NULL, &r);
            CHECK(r.status == 200 && strcmp(r.body, svg[n]) == 0 && strcmp(r.etag, etag) == 0 &&
                      strstr(r.cache, "immutable"),
                  "%s: %ld %s", path, r.status, r.etag);
            resp_free(&r);
            get1(srv, path, inm, &r);
            CHECK(r.status == 304 && strstr(r.cache, "immutable"), "%s 304: %ld", path, r.status);
            resp_free(&r);
        }
        snprintf(path, sizeof path, "/v1/games/%s/board.png?version=2&width=200", g.id);
        struct resp r;
        get1(srv, path, NULL, &r);
        CHECK(r.status == 200 && strcmp(r.ctype, "image/png") == 0 &&
                  strcmp(r.etag, "\"2\"") == 0 && strstr(r.cache, "immutable"),
              "%s: %ld %s", path, r.status, r.etag);
        resp_free(&r);
        get1(srv, path, "If-None-Match: \"2\"", &r);
        CHECK(r.status == 304 && strstr(r.cache, "immutable"), "%s 304: %ld", path, r.status);
        resp_free(&r);
        /* After the stored version: 404 version_not_found, each view. */
        int now = game_version(srv, &g);
        CHECK(now >= v, "version %d after %d", now, v);
        static const char *const views[] = {"", "/board.svg", "/board.png"};
        for (int k = 0; k < 3; k++) {
            snprintf(path, sizeof path, "/v1/games/%s%s?version=%d", g.id, views[k], now + 1);
            get1(srv, path, NULL, &r);
            CHECK(r.status == 404 && strcmp(problem_code(&r), "version_not_found") == 0,
                  "%s: %ld %s", path, r.status, problem_code(&r));
            resp_free(&r);
            static const char *const bad[] = {"0", "-1", "x", "1.5", "", "99999999999999999999"};
            for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
                snprintf(path, sizeof path, "/v1/games/%s%s?version=%s", g.id, views[k], bad[b]);
                get1(srv, path, NULL, &r);
                CHECK(r.status == 400 && strcmp(problem_code(&r), "invalid_parameter") == 0,
                      "%s: %ld %s", path, r.status, problem_code(&r));
                resp_free(&r);
            }
            snprintf(path, sizeof path, "/v1/games/%s%s?version=1&version=1", g.id, views[k]);
            get1(srv, path, NULL, &r);
            CHECK(r.status == 400, "%s: %ld", path, r.status);
            resp_free(&r);
            snprintf(path, sizeof path,
                     "/v1/games/00000000-0000-4000-8000-000000000000%s?version=1", views[k]);
            get1(srv, path, NULL, &r);
            CHECK(r.status == 404 && strcmp(problem_code(&r), "not_found") == 0, "%s: %ld %s", path,
                  r.status, problem_code(&r));
            resp_free(&r);
        }
        for (int n = 0; n < MAX_VERSIONS; n++) {
            free(state[n]);
            free(svg[n]);
            state[n] = svg[n] = NULL;
        }
    }
    free(state);
    free(svg);
}

/* Milliseconds of a monotonic clock. */
static long long ms_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* /events in pages (limit, has_more, last_seq), the game's status in the list, the limit's
 * refusals, and a long poll on a finished game answering at once. */
ITEST(test_events_pages,
      "events: pages (limit, has_more), the status; a long poll on a finished game at once")
{
    struct game g;
    NEW_GAME(&g, "{\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"}],\"start\":\"D\",\"deck\":"
                 "[\"K\",\"D\",\"E\",\"U\"]}");
    char path[200], why[300];
    struct resp r;
    snprintf(path, sizeof path, "/v1/games/%s/events", g.id);
    http(srv, "GET", path, NULL, NULL, &r);
    CHECK(r.status == 200 && strcmp(jstr(r.json, "status"), "active") == 0 &&
              cJSON_IsFalse(jget(r.json, "has_more")) && jnum(r.json, "last_seq") >= 1,
          "%ld %.200s", r.status, r.body);
    resp_free(&r);
    int done = 0;
    for (int t = 0; t < 20 && !done; t++) {
        done = play_move(srv, &g, 1, 1, why, sizeof why);
        CHECK(done >= 0, "%s", why);
    }
    CHECK(done, "not finished");
    cJSON *all = game_events(srv, g.id);
    CHECK(all, "no events");
    int n = cJSON_GetArraySize(all);
    int last = (int)jnum(cJSON_GetArrayItem(all, n - 1), "seq");
    cJSON_Delete(all);
    CHECK(n > 6 && last == n, "%d events, last %d", n, last);
    /* Pages of 3: every event once, has_more until the last page. */
    int after = 0, pages = 0;
    for (;;) {
        snprintf(path, sizeof path, "/v1/games/%s/events?after=%d&limit=3", g.id, after);
        http(srv, "GET", path, NULL, NULL, &r);
        const cJSON *evs = jget(r.json, "events");
        int k = cJSON_GetArraySize(evs);
        int more = cJSON_IsTrue(jget(r.json, "has_more"));
        CHECK(r.status == 200 && k >= 1 && k <= 3 && (int)jnum(r.json, "last_seq") == last &&
                  strcmp(jstr(r.json, "status"), "finished") == 0 &&
                  (int)jnum(cJSON_GetArrayItem(evs, 0), "seq") == after + 1,
              "%s: %ld %.200s", path, r.status, r.body);
        after = (int)jnum(cJSON_GetArrayItem(evs, k - 1), "seq");
        CHECK(more == (after < last), "%s: has_more %d at %d", path, more, after);
        resp_free(&r);
        pages++;
        if (!more) break;
    }
    CHECK(after == last && pages == (last + 2) / 3, "%d pages to %d", pages, after);
    /* A long poll on a finished game answers at once, with nothing. */
    long long t0 = ms_now();
    snprintf(path, sizeof path, "/v1/games/%s/events?after=%d&wait=5", g.id, last);
    http(srv, "GET", path, NULL, NULL, &r);
    long long took = ms_now() - t0;
    CHECK(r.status == 200 && cJSON_GetArraySize(jget(r.json, "events")) == 0 &&
              cJSON_IsFalse(jget(r.json, "has_more")) &&
              strcmp(jstr(r.json, "status"), "finished") == 0 && took < 1500,
          "%ld after %lld ms: %.200s", r.status, took, r.body);
    resp_free(&r);
    /* The stream's own path, whatever Accept says: a finished game's ends at once. */
    snprintf(path, sizeof path, "/v1/games/%s/events/stream?after=%d", g.id, last - 1);
    http(srv, "GET", path, NULL, NULL, &r);
    char want[32];
    snprintf(want, sizeof want, "id: %d\n", last);
    CHECK(r.status == 200 && strncmp(r.ctype, "text/event-stream", 17) == 0 && r.body &&
              strncmp(r.body, "retry: 2000", 11) == 0 && strstr(r.body, want) &&
              strstr(r.body, "event: game_finished"),
          "%s: %ld %s %.200s", path, r.status, r.ctype, r.body);
    resp_free(&r);
    static const char *const bad[] = {"0", "1001", "-1", "x", "", "2&limit=2"};
    for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
        snprintf(path, sizeof path, "/v1/games/%s/events?limit=%s", g.id, bad[b]);
        http(srv, "GET", path, NULL, NULL, &r);
        CHECK(r.status == 400 && strcmp(problem_code(&r), "invalid_parameter") == 0, "%s: %ld %s",
              path, r.status, problem_code(&r));
        resp_free(&r);
    }
}

/* A placement's answer says what comes next: its status and turn are the game's, as GET
 * shows them right after (classic to its end, and the hand-of-two variant). */
ITEST(test_place_answer_next,
      "placements: the answer says what comes next (status, turn), as GET shows it")
{
    static const char *const setups[] = {
        "{\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"}],\"start\":\"D\",\"deck\":[\"K\","
        "\"D\",\"E\",\"U\"]}",
        "{\"ruleset\":\"discovery\",\"options\":{\"draw\":\"hand\"},\"players\":[{\"name\":\"A\"},"
        "{\"name\":\"B\"}],\"seed\":3}",
    };
    char path[200], body[200];
    for (size_t i = 0; i < sizeof setups / sizeof setups[0]; i++) {
        struct game g;
        NEW_GAME(&g, setups[i]);
        int places = 0, finished = 0;
        for (int a = 0; a < 40 && !finished; a++) {
            cJSON *j = game_get(srv, &g);
            CHECK(j, "GET");
            int seat = (int)jnum(j, "turn.seat");
            int draw = strcmp(jstr(j, "turn.phase"), "draw") == 0;
            cJSON_Delete(j);
            const char *h[] = {g.auth[seat], NULL};
            struct resp r;
            if (draw) {
                snprintf(path, sizeof path, "/v1/games/%s/draw", g.id);
                http(srv, "POST", path, NULL, h, &r);
                CHECK(r.status == 200, "draw: %ld", r.status);
                finished = strcmp(jstr(r.json, "game.status"), "finished") == 0;
                resp_free(&r);
                continue;
            }
            snprintf(path, sizeof path, "/v1/games/%s/placements", g.id);
            http(srv, "GET", path, NULL, NULL, &r);
            const cJSON *p = jget(r.json, "placements.0");
            CHECK(r.status == 200 && p, "placements: %ld", r.status);
            int n = snprintf(body, sizeof body, "{\"x\":%d,\"y\":%d,\"rotation\":%d",
                             (int)jnum(p, "x"), (int)jnum(p, "y"), (int)jnum(p, "rotation"));
            if (jstr(p, "tile")[0])
                n += snprintf(body + n, sizeof body - (size_t)n, ",\"tile\":\"%s\"",
                              jstr(p, "tile"));
            snprintf(body + n, sizeof body - (size_t)n, "}");
            resp_free(&r);
            http(srv, "POST", path, body, h, &r);
            CHECK(r.status == 201, "place %s: %ld %.200s", body, r.status, r.body);
            j = game_get(srv, &g);
            CHECK(j, "GET");
            const cJSON *turn = jget(r.json, "turn");
            int same = turn && cJSON_Compare(turn, jget(j, "turn"), 1) &&
                       strcmp(jstr(r.json, "status"), jstr(j, "status")) == 0 &&
                       (int)jnum(r.json, "version") == (int)jnum(j, "version");
            char *got = cJSON_PrintUnformatted(turn),
                 *want = cJSON_PrintUnformatted(jget(j, "turn"));
            finished = strcmp(jstr(j, "status"), "finished") == 0;
            cJSON_Delete(j);
            resp_free(&r);
            if (!same) {
                snprintf(body, sizeof body, "%.90s vs %.90s", got ? got : "-", want ? want : "-");
                free(got);
                free(want);
                CHECK(0, "placement %d: %s", places, body);
            }
            free(got);
            free(want);
            places++;
        }
        CHECK(places >= 3 && (i != 0 || finished), "%s: %d placements, finished %d", setups[i],
              places, finished);
    }
}

/* If-Match as openapi.yaml has it: "N" and the bare N match their version, * any, W/"N"
 * never (412), and other forms are 400 invalid_parameter; refusals change nothing. */
ITEST(test_if_match_forms, "If-Match forms as the spec has them: \"N\", N, *, W/ never, others 400")
{
    struct game g;
    NEW_GAME(&g, "{\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"}],\"seed\":11}");
    static const struct {
        const char *h; /* If-Match, with %d for the version */
        int delta;     /* added to the version */
        long status;   /* of a draw */
        const char *code;
    } cases[] = {
        {"W/\"%d\"", 0, 412, "version_mismatch"},
        {"\"%d\"", 1, 412, "version_mismatch"},
        {"\"%d\", \"%d\"", 0, 400, "invalid_parameter"},
        {"'%d'", 0, 400, "invalid_parameter"},
        {"%d", 0, 200, ""},
    };
    char path[160], hdr[80], fmt[40];
    snprintf(path, sizeof path, "/v1/games/%s/draw", g.id);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int v = game_version(srv, &g);
        snprintf(fmt, sizeof fmt, "If-Match: %s", cases[i].h);
        snprintf(hdr, sizeof hdr, fmt, v + cases[i].delta, v);
        const char *h[] = {g.auth[0], hdr, NULL};
        struct resp r;
        http(srv, "POST", path, NULL, h, &r);
        CHECK(r.status == cases[i].status && strcmp(problem_code(&r), cases[i].code) == 0 &&
                  game_version(srv, &g) == v + (r.status == 200),
              "%s: %ld %s", hdr, r.status, problem_code(&r));
        resp_free(&r);
    }
    /* `*`: any version. Seat 0 places its tile with it. */
    cJSON *j = game_get(srv, &g);
    CHECK(j && strcmp(jstr(j, "turn.phase"), "place") == 0, "not in the place phase");
    cJSON_Delete(j);
    snprintf(path, sizeof path, "/v1/games/%s/placements", g.id);
    struct resp r;
    http(srv, "GET", path, NULL, NULL, &r);
    char body[120];
    const cJSON *p = jget(r.json, "placements.0");
    CHECK(p, "no placement");
    snprintf(body, sizeof body, "{\"x\":%d,\"y\":%d,\"rotation\":%d}", (int)jnum(p, "x"),
             (int)jnum(p, "y"), (int)jnum(p, "rotation"));
    resp_free(&r);
    const char *h[] = {g.auth[0], "If-Match: *", NULL};
    http(srv, "POST", path, body, h, &r);
    CHECK(r.status == 201, "If-Match: *: %ld %s", r.status, problem_code(&r));
    resp_free(&r);
}

/* The seat to move in `g` draws; 0 or -1. */
static int draw(const struct server *srv, const struct game *g, int *seat)
{
    cJSON *j = game_get(srv, g);
    if (!j) return -1;
    *seat = (int)jnum(j, "turn.seat");
    cJSON_Delete(j);
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s/draw", g->id);
    const char *h[] = {g->auth[*seat], NULL};
    struct resp r;
    http(srv, "POST", path, NULL, h, &r);
    int ok = r.status == 200;
    resp_free(&r);
    return ok ? 0 : -1;
}

/* Choices a client can use as they are: spots (each feature once, with its kind), twins
 * by symmetry (same_as), the feature under each board piece, and withdrawals with what
 * they score (the score the withdrawal then gets). */
ITEST(test_choices,
      "choices: spots by feature, twins by symmetry, piece features, withdrawals' scores")
{
    struct game g;
    NEW_GAME(&g, "{\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"}],\"start\":\"D\",\"deck\":"
                 "[\"L\",\"U\",\"K\",\"V\"]}");
    char path[160], body[200];
    int seat, twins = 0, most_locs = 0, most_spots = 0;
    for (int turn = 0; turn < 2; turn++) {
        CHECK(draw(srv, &g, &seat) == 0, "draw");
        snprintf(path, sizeof path, "/v1/games/%s/placements", g.id);
        struct resp r;
        http(srv, "GET", path, NULL, NULL, &r);
        const cJSON *list = jget(r.json, "placements"), *p;
        CHECK(r.status == 200 && cJSON_GetArraySize(list) > 0, "placements: %ld", r.status);
        int i = 0;
        cJSON_ArrayForEach(p, list)
        {
            const cJSON *locs = jget(p, "follower"), *spots = jget(p, "spots"), *s;
            int nl = cJSON_GetArraySize(locs), ns = cJSON_GetArraySize(spots);
            CHECK(cJSON_IsArray(spots) && ns <= nl && (nl == 0) == (ns == 0), "spots %d of %d", ns,
                  nl);
            cJSON_ArrayForEach(s, spots)
            {
                /* Each spot is one of the entry's locations, with a kind, none twice. */
                const char *loc = jstr(s, "location");
                int found = 0, again = 0;
                const cJSON *l, *t;
                cJSON_ArrayForEach(l, locs) found += strcmp(l->valuestring, loc) == 0;
                cJSON_ArrayForEach(t, spots) again += strcmp(jstr(t, "location"), loc) == 0;
                CHECK(found == 1 && again == 1 && jstr(s, "kind")[0], "spot %s", loc);
            }
            if (nl > most_locs) most_locs = nl, most_spots = ns;
            const cJSON *twin = jget(p, "same_as");
            if (twin) {
                const cJSON *q = cJSON_GetArrayItem(list, twin->valueint);
                CHECK(twin->valueint < i && q && jnum(q, "x") == jnum(p, "x") &&
                          jnum(q, "y") == jnum(p, "y") && !jget(q, "same_as") &&
                          jnum(q, "rotation") != jnum(p, "rotation"),
                      "entry %d same_as %d", i, twin->valueint);
                twins++;
            }
            i++;
        }
        /* Deploy on the first spot of the first entry; the board names that feature. */
        p = cJSON_GetArrayItem(list, 0);
        const char *loc = jstr(p, "spots.0.location");
        char kind[24];
        snprintf(kind, sizeof kind, "%s", jstr(p, "spots.0.kind"));
        CHECK(loc[0], "no spot");
        int x = (int)jnum(p, "x"), y = (int)jnum(p, "y");
        snprintf(body, sizeof body, "{\"x\":%d,\"y\":%d,\"rotation\":%d,\"follower\":\"%s\"}", x, y,
                 (int)jnum(p, "rotation"), loc);
        resp_free(&r);
        game_post(srv, &g, seat, "placements", body, &r);
        CHECK(r.status == 201, "place %s: %ld %.200s", body, r.status, r.body);
        resp_free(&r);
        cJSON *j = game_get(srv, &g);
        const cJSON *t, *found = NULL;
        cJSON_ArrayForEach(t, jget(j, "board"))
        {
            if ((int)jnum(t, "x") == x && (int)jnum(t, "y") == y) found = jget(t, "pieces.0");
        }
        int same = found && strcmp(jstr(found, "feature"), kind) == 0;
        cJSON_Delete(j);
        CHECK(same, "the piece at (%d, %d) does not stand on a %s", x, y, kind);
    }
    /* Tile L: 12 locations, 7 features; the straight road U has twins by symmetry. */
    CHECK(most_locs == 12 && most_spots == 7, "L: %d locations, %d spots", most_locs, most_spots);
    CHECK(twins > 0, "no twin by symmetry");

    /* Discovery: each withdrawal says what it scores, and scores that. */
    NEW_GAME(&g, "{\"ruleset\":\"discovery\",\"players\":[{\"name\":\"A\"},{\"name\":\"B\"}],"
                 "\"seed\":21}");
    int checked = 0;
    for (int turn = 0; turn < 30 && !checked; turn++) {
        CHECK(draw(srv, &g, &seat) == 0, "discovery draw");
        snprintf(path, sizeof path, "/v1/games/%s/placements", g.id);
        struct resp r;
        http(srv, "GET", path, NULL, NULL, &r);
        const cJSON *p = jget(r.json, "placements.0");
        CHECK(r.status == 200 && p, "discovery placements: %ld", r.status);
        const cJSON *w = jget(p, "withdraw.0");
        int n = snprintf(body, sizeof body, "{\"x\":%d,\"y\":%d,\"rotation\":%d", (int)jnum(p, "x"),
                         (int)jnum(p, "y"), (int)jnum(p, "rotation"));
        long points = -1;
        if (w && jget(w, "points")) {
            points = (long)jnum(w, "points");
            snprintf(body + n, sizeof body - (size_t)n,
                     ",\"withdraw\":{\"x\":%d,\"y\":%d,\"location\":\"%s\"}}", (int)jnum(w, "x"),
                     (int)jnum(w, "y"), jstr(w, "location"));
        } else if (jstr(p, "spots.0.location")[0]) {
            snprintf(body + n, sizeof body - (size_t)n, ",\"follower\":\"%s\"}",
                     jstr(p, "spots.0.location"));
        } else {
            snprintf(body + n, sizeof body - (size_t)n, "}");
        }
        resp_free(&r);
        game_post(srv, &g, seat, "placements", body, &r);
        CHECK(r.status == 201, "place %s: %ld %.200s", body, r.status, r.body);
        if (points >= 0) {
            const cJSON *e, *ev = NULL;
            cJSON_ArrayForEach(e, jget(r.json, "events"))
            {
                if (strcmp(jstr(e, "type"), "follower_withdrawn") == 0) ev = e;
            }
            CHECK(ev && (long)jnum(ev, "points") == points, "withdrawal: %ld listed, %.200s",
                  points, r.body);
            checked = 1;
        }
        resp_free(&r);
    }
    CHECK(checked, "no withdrawal tried");
}
