/* routes_ratings.c: reading ratings (issue 25; api.md "Ratings and leaderboards"): a
 * player's public profile (GET /v1/players/{id}), a rating's history (GET
 * /v1/players/{id}/ratings/{pool}), a pool's leaderboard (GET /v1/leaderboards/{pool})
 * and the computer players' ratings (GET /v1/bots). All public: no token. Deviations are
 * shown aged to now (api/ratings/glicko2.h), so a rating left alone grows less certain. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auth.h"
#include "board_cache.h"
#include "clocks.h"
#include "json_game.h"
#include "json_out.h"
#include "params.h"
#include "problem.h"
#include "routes.h"
#include "store_ratings.h"
#include "tiles.h"

#define BOARD_LIMIT_DEFAULT   50   /* leaderboard entries per page without ?limit */
#define BOARD_LIMIT_MAX       100  /* ?limit at most */
#define HISTORY_LIMIT_DEFAULT 100  /* history points without ?limit */
#define HISTORY_LIMIT_MAX     1000 /* ?limit at most */
#define BOARD_CURSOR_MAX      128  /* bytes of a leaderboard cursor */

/* The computer players' levels and think classes that GET /v1/bots lists. */
static const char *const bot_levels[] = {"random", "greedy", "mcts", "hard"};
static const char *const think_classes[] = {"fast", "normal", "slow"};

/* {"rating", "deviation", "provisional", "games", "won", "drawn", "lost", "last_rated_at"}
 * of `r` as of `now_ms` (the deviation aged; rating and deviation rounded). */
static void rating_json(struct json_out *w, const struct store_rating *r, long long now_ms)
{
    char when[32];
    json_out_begin_object(w);
    json_rating_members(w, &r->rating, r->last_rated_ms, now_ms, r->games);
    json_out_kint(w, "won", r->won);
    json_out_kint(w, "drawn", r->drawn);
    json_out_kint(w, "lost", r->lost);
    if (r->last_rated_ms) clocks_rfc3339(r->last_rated_ms, when);
    json_out_kstring(w, "last_rated_at", r->last_rated_ms ? when : NULL);
    json_out_end_object(w);
}

/* Answers 200 with the JSON of `w` (freed), or 500 when memory ran short. */
static void reply_json(struct api_response *resp, struct json_out *w)
{
    size_t len = 0;
    char *body = json_out_take(w, &len);
    json_out_free(w);
    if (!body) {
        problem_reply(resp, 500, "internal_error", "Out of memory.");
        return;
    }
    api_reply_take(resp, 200, "application/json", body);
    resp->len = len;
}

/* Answers 404: no player has this id (or the id is none). */
static void no_player(struct api_response *resp)
{
    problem_reply(resp, 404, "not_found", "There is no player with this id.");
}

/* Starts the answer's object in `w` when the store read it (`s` is STORE_OK) and returns 0;
 * else answers `s` as a problem and returns -1. */
static int begin_answer(struct api_response *resp, enum store_status s, struct json_out *w)
{
    if (s != STORE_OK) {
        problem_store(resp, s);
        return -1;
    }
    json_out_init(w);
    json_out_begin_object(w);
    return 0;
}

/* 1 (after answering 404) unless `pool` names a ruleset. */
static int no_pool(struct api_response *resp, const char *pool)
{
    if (pool && cc_ruleset_parse(pool) >= 0) return 0;
    problem_reply(resp, 404, "not_found", "There is no such pool (the pools are the rulesets).");
    return 1;
}

/* The integer ?name= of `req` within 1..max into *out (`fallback` when absent): NULL, or
 * the detail of a 400. */
static const char *limit_param(const struct api_request *req, long max, long fallback, long *out)
{
    const char *v = api_query_get(req, "limit");
    *out = fallback;
    if (v && (params_uint(v, max, out) || *out < 1)) return "limit is out of range.";
    return NULL;
}

void routes_player_public(const struct api_request *req, struct api_response *resp, const char *id)
{
    if (!id || !auth_uuid_valid(id)) {
        no_player(resp);
        return;
    }
    char name[STORE_NAME_MAX + 1];
    struct store_rating_list l;
    (void)req;
    enum store_status s = store_ratings_of_person(id, name, &l);
    if (s == STORE_NOT_FOUND) {
        no_player(resp);
        return;
    }
    struct json_out w;
    if (begin_answer(resp, s, &w)) return;
    json_out_kstring(&w, "id", id);
    json_out_kstring(&w, "name", name);
    json_out_key(&w, "ratings");
    json_out_begin_object(&w);
    for (int i = 0; i < l.n; i++) {
        json_out_key(&w, l.rows[i].pool);
        rating_json(&w, &l.rows[i], l.now_ms);
    }
    json_out_end_object(&w);
    json_out_end_object(&w);
    store_ratings_free(&l);
    reply_json(resp, &w);
}

void routes_player_rating_history(const struct api_request *req, struct api_response *resp,
                                  const char *pool)
{
    /* The path is /v1/players/{id}/ratings/{pool}: the router hands over the pool. */
    const char *p = req->path + strlen("/v1/players/");
    char id[AUTH_UUID_LEN + 1];
    const char *slash = strchr(p, '/');
    if (!slash || slash - p != AUTH_UUID_LEN) {
        no_player(resp);
        return;
    }
    for (int i = 0; i < AUTH_UUID_LEN; i++)
        id[i] = (char)(p[i] >= 'A' && p[i] <= 'F' ? p[i] - 'A' + 'a' : p[i]);
    id[AUTH_UUID_LEN] = '\0';
    if (!auth_uuid_valid(id)) {
        no_player(resp);
        return;
    }
    if (no_pool(resp, pool)) return;
    long limit;
    const char *bad = limit_param(req, HISTORY_LIMIT_MAX, HISTORY_LIMIT_DEFAULT, &limit);
    if (bad) {
        problem_reply(resp, 400, "invalid_parameter", bad);
        return;
    }
    char name[STORE_NAME_MAX + 1];
    struct store_rating_list now, hist;
    enum store_status s = store_ratings_of_person(id, name, &now);
    if (s == STORE_NOT_FOUND) {
        no_player(resp);
        return;
    }
    if (s == STORE_OK) s = store_rating_history(id, pool, (int)limit, &hist);
    struct json_out w;
    if (begin_answer(resp, s, &w)) {
        store_ratings_free(&now);
        return;
    }
    struct store_rating fresh = {.rating = glicko2_initial()};
    const struct store_rating *cur = &fresh;
    for (int i = 0; i < now.n; i++)
        if (strcmp(now.rows[i].pool, pool) == 0) cur = &now.rows[i];
    json_out_kstring(&w, "player", id);
    json_out_kstring(&w, "name", name);
    json_out_kstring(&w, "pool", pool);
    json_out_key(&w, "rating");
    rating_json(&w, cur, now.now_ms);
    json_out_key(&w, "history");
    json_out_begin_array(&w);
    for (int i = 0; i < hist.n; i++) {
        const struct store_rating_point *pt = &hist.points[i];
        char when[32];
        clocks_rfc3339(pt->rated_ms, when);
        json_out_begin_object(&w);
        json_out_kstring(&w, "game_id", pt->game_id);
        json_out_kstring(&w, "rated_at", when);
        json_out_kint(&w, "seats", pt->seats);
        json_out_kint(&w, "place", pt->place + 1);
        json_out_kint(&w, "rating_before", llround(pt->before.rating));
        json_out_kint(&w, "rating_after", llround(pt->after.rating));
        json_out_kint(&w, "deviation_after", llround(pt->after.deviation));
        json_out_end_object(&w);
    }
    json_out_end_array(&w);
    json_out_end_object(&w);
    store_ratings_free(&now);
    store_ratings_free(&hist);
    reply_json(resp, &w);
}

/* A leaderboard cursor: "<rank>.<the rating's 64 bits in hex>.<subject>" of the last
 * entry shown. Parses `c` into *rank and *after: 0, or -1 for one this list did not give. */
static int cursor_parse(const char *c, long *rank, struct store_board_after *after)
{
    char *end;
    if (strlen(c) >= BOARD_CURSOR_MAX || *c < '0' || *c > '9') return -1;
    *rank = strtol(c, &end, 10);
    if (*end != '.' || *rank < 1 || *rank > 1000000000L) return -1;
    const char *hex = end + 1;
    uint64_t bits = 0;
    for (int i = 0; i < 16; i++) {
        char h = hex[i];
        int v = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10 : -1;
        if (v < 0) return -1;
        bits = bits << 4 | (uint64_t)v;
    }
    if (hex[16] != '.') return -1;
    memcpy(&after->rating, &bits, sizeof bits);
    if (!isfinite(after->rating)) return -1;
    const char *subject = hex + 17;
    char check[RATINGS_SUBJECT_MAX];
    size_t n = strlen(subject);
    if (n == 0 || n >= sizeof after->subject) return -1;
    memcpy(after->subject, subject, n + 1);
    /* A subject is a person's id or bot:<level>:<class>, nothing else. */
    if (strncmp(subject, "bot:", 4) == 0) {
        char level[RATINGS_SUBJECT_MAX];
        const char *colon = strchr(subject + 4, ':');
        if (!colon || (size_t)(colon - subject - 4) >= sizeof level) return -1;
        memcpy(level, subject + 4, (size_t)(colon - subject - 4));
        level[colon - subject - 4] = '\0';
        for (int k = 0; k < 3; k++) {
            if (ratings_subject(NULL, level,
                                k == 0   ? 0
                                : k == 1 ? 100
                                         : 1000,
                                check) == 0 &&
                strcmp(check, subject) == 0)
                return 0;
        }
        return -1;
    }
    /* A person's id as the list writes it: lowercase (the subjects compare as text). */
    if (!auth_uuid_valid(subject)) return -1;
    for (const char *ch = subject; *ch; ch++)
        if (*ch >= 'A' && *ch <= 'F') return -1;
    return 0;
}

void routes_leaderboard(const struct api_request *req, struct api_response *resp, const char *pool)
{
    if (no_pool(resp, pool)) return;
    long limit, rank = 0;
    const char *bad = limit_param(req, BOARD_LIMIT_MAX, BOARD_LIMIT_DEFAULT, &limit);
    const char *bots = api_query_get(req, "bots");
    const char *cursor = api_query_get(req, "cursor");
    struct store_board_after after = {INFINITY, ""};
    if (!bad && bots && strcmp(bots, "true") != 0 && strcmp(bots, "false") != 0)
        bad = "bots must be true or false.";
    if (!bad && cursor && cursor_parse(cursor, &rank, &after))
        bad = "cursor is not one this list gave (pass next_cursor as it came).";
    if (bad) {
        problem_reply(resp, 400, "invalid_parameter", bad);
        return;
    }
    /* The page as the query means it (bots=false is the default): kept a moment. */
    int with_bots = bots && strcmp(bots, "true") == 0;
    char key[BOARD_CACHE_KEY_MAX];
    snprintf(key, sizeof key, "%s|%d|%ld|%s", pool, with_bots, limit, cursor ? cursor : "");
    if (board_cache_get(key, resp)) return;
    struct store_rating_list l;
    enum store_status s = store_leaderboard(pool, with_bots, (int)limit, &after, &l);
    struct json_out w;
    if (begin_answer(resp, s, &w)) return;
    json_out_kstring(&w, "pool", pool);
    json_out_key(&w, "entries");
    json_out_begin_array(&w);
    for (int i = 0; i < l.n; i++) {
        const struct store_rating *r = &l.rows[i];
        json_out_begin_object(&w);
        json_out_kint(&w, "rank", rank + i + 1);
        json_out_kstring(&w, "name", r->name);
        json_out_kstring(&w, "player_id", r->bot[0] ? NULL : r->subject);
        json_out_kstring(&w, "bot", r->bot[0] ? r->bot : NULL);
        json_out_kstring(&w, "think_class", r->bot[0] ? r->think_class : NULL);
        json_out_key(&w, "rating");
        rating_json(&w, r, l.now_ms);
        json_out_end_object(&w);
    }
    json_out_end_array(&w);
    char next[BOARD_CURSOR_MAX];
    if (l.more && l.n > 0) {
        const struct store_rating *last = &l.rows[l.n - 1];
        uint64_t bits;
        memcpy(&bits, &last->rating.rating, sizeof bits);
        snprintf(next, sizeof next, "%ld.%016" PRIx64 ".%s", rank + l.n, bits, last->subject);
    }
    json_out_kstring(&w, "next_cursor", l.more && l.n > 0 ? next : NULL);
    json_out_end_object(&w);
    store_ratings_free(&l);
    reply_json(resp, &w);
    if (resp->status == 200) board_cache_put(key, resp->body, resp->len);
}

void routes_bots(const struct api_request *req, struct api_response *resp, const char *arg)
{
    (void)req;
    (void)arg;
    struct store_rating_list l;
    struct json_out w;
    if (begin_answer(resp, store_bot_ratings(&l), &w)) return;
    json_out_key(&w, "bots");
    json_out_begin_array(&w);
    for (size_t b = 0; b < sizeof bot_levels / sizeof bot_levels[0]; b++) {
        for (size_t c = 0; c < sizeof think_classes / sizeof think_classes[0]; c++) {
            json_out_begin_object(&w);
            json_out_kstring(&w, "level", bot_levels[b]);
            json_out_kstring(&w, "think_class", think_classes[c]);
            json_out_key(&w, "ratings");
            json_out_begin_object(&w);
            for (int i = 0; i < l.n; i++) {
                if (strcmp(l.rows[i].bot, bot_levels[b]) != 0 ||
                    strcmp(l.rows[i].think_class, think_classes[c]) != 0)
                    continue;
                json_out_key(&w, l.rows[i].pool);
                rating_json(&w, &l.rows[i], l.now_ms);
            }
            json_out_end_object(&w);
            json_out_end_object(&w);
        }
    }
    json_out_end_array(&w);
    json_out_end_object(&w);
    store_ratings_free(&l);
    reply_json(resp, &w);
}
