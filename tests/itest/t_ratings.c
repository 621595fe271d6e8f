/* t_ratings.c: reading ratings (issue 25): GET /v1/players/{id}, /v1/players/{id}/ratings/
 * {pool}, /v1/leaderboards/{pool} and /v1/bots over rating rows written straight into the
 * database (rated games cannot be played yet: the game service will write them with
 * ratings_apply_game); the leaderboard's filters (provisional, inactive, people only) and
 * its pages; every refusal. */
#include <stdio.h>
#include <string.h>

#include "db.h"
#include "tests.h"

/* Runs an INSERT `sql` with `n` parameters; the rows it wrote, or -1. */
static long insert(const char *sql, int n, const char *const *vals)
{
    char wrapped[1024];
    snprintf(wrapped, sizeof wrapped, "WITH x AS (%s RETURNING 1) SELECT count(*) FROM x", sql);
    return db_scalar_params(wrapped, n, vals);
}

/* A rating row for person `id` in `pool`: rating, deviation, days since its last game. */
static long rate(const char *id, const char *pool, const char *rating, const char *deviation,
                 const char *days)
{
    const char *v[5] = {id, pool, rating, deviation, days};
    return insert("INSERT INTO ratings (subject, pool, person_id, rating, deviation, volatility, "
                  "games, won, drawn, lost, last_rated_at) VALUES ($1::text, $2, $1::uuid, "
                  "$3::float8, $4::float8, 0.06, 20, 9, 1, 10, now() - $5::integer * "
                  "interval '1 day')",
                  5, v);
}

/* GET `path`: its status, and its problem code (or "") into code[64]. */
static long status_of(const struct server *srv, const char *path, char code[64])
{
    struct resp r;
    http(srv, "GET", path, NULL, NULL, &r);
    long st = r.status;
    snprintf(code, 64, "%s", r.json ? jstr(r.json, "code") : "");
    resp_free(&r);
    return st;
}

ITEST(test_ratings_read, "ratings: profiles, histories, leaderboards, bots")
{
    struct person a, b, c, d;
    char why[300], path[256], code[64];
    CHECK(person_new(srv, "Ann", &a, why, sizeof why) == 0, "%s", why);
    CHECK(person_new(srv, "Bob", &b, why, sizeof why) == 0, "%s", why);
    CHECK(person_new(srv, "Cy", &c, why, sizeof why) == 0, "%s", why);
    CHECK(person_new(srv, "Dee", &d, why, sizeof why) == 0, "%s", why);
    /* Ann 1700 settled, Bob 1800 settled, Cy 1900 but away 120 days; Dee 1750 stored at 105
     * but away 60 days: sqrt(105^2 + 60 * 0.21436 * (0.06 * 173.7178)^2) = 111.5, shown
     * provisional, so not on the leaderboard; Ann provisional in hills; a computer player
     * above them all. */
    CHECK(rate(a.id, "classic", "1700", "60", "2") == 1, "insert Ann");
    CHECK(rate(b.id, "classic", "1800", "80", "1") == 1, "insert Bob");
    CHECK(rate(c.id, "classic", "1900", "50", "120") == 1, "insert Cy");
    CHECK(rate(d.id, "classic", "1750", "105", "60") == 1, "insert Dee");
    CHECK(rate(a.id, "hills", "1550", "200", "0") == 1, "insert Ann hills");
    CHECK(insert("INSERT INTO ratings (subject, pool, bot, think_class, rating, deviation, "
                 "volatility, games, last_rated_at) VALUES ('bot:mcts:slow', 'classic', 'mcts', "
                 "'slow', 2000, 45, 0.06, 400, now())",
                 0, NULL) == 1,
          "insert mcts");
    const char *h[3] = {a.id, "aaaaaaaa-0000-4000-8000-000000000001",
                        "aaaaaaaa-0000-4000-8000-000000000002"};
    CHECK(insert("INSERT INTO rating_history (game_id, seat, subject, pool, seats, place, "
                 "rating_before, deviation_before, volatility_before, rating_after, "
                 "deviation_after, volatility_after, rated_at) VALUES ($2::uuid, 0, $1, "
                 "'classic', 2, 0, 1500, 350, 0.06, 1662.2, 290.2, 0.06, now() - interval "
                 "'3 days'), ($3::uuid, 1, $1, 'classic', 4, 2, 1662.2, 290.2, 0.06, 1700, "
                 "60, 0.06, now() - interval '2 days')",
                 3, h) == 2,
          "insert history");

    /* The profile: both pools, the deviation shown as of now. */
    snprintf(path, sizeof path, "/v1/players/%s", a.id);
    cJSON *j = get_json(srv, path);
    CHECK(j, "GET %s", path);
    int ok = strcmp(jstr(j, "name"), "Ann") == 0 && jnum(j, "ratings.classic.rating") == 1700 &&
             jnum(j, "ratings.classic.games") == 20 && jnum(j, "ratings.classic.won") == 9 &&
             jnum(j, "ratings.classic.deviation") >= 60 &&
             jnum(j, "ratings.classic.deviation") < 62 &&
             cJSON_IsFalse(jget(j, "ratings.classic.provisional")) &&
             cJSON_IsTrue(jget(j, "ratings.hills.provisional")) && !jget(j, "ratings.discovery");
    char *text = cJSON_PrintUnformatted(j);
    cJSON_Delete(j);
    CHECK(ok, "profile: %.400s", text ? text : "");
    cJSON_free(text);
    /* A player without a rated game has no ratings; unknown ids are 404. */
    snprintf(path, sizeof path, "/v1/players/%s", c.id);
    j = get_json(srv, path);
    /* Stored 50, 120 days away: sqrt(50^2 + 120 * 0.21436 * (0.06 * 173.7178)^2) = 72.7. */
    CHECK(j && jnum(j, "ratings.classic.deviation") == 73, "Cy's deviation grew with time away");
    cJSON_Delete(j);
    expect_not_found(srv, "/v1/players/aaaaaaaa-0000-4000-8000-00000000000f");
    expect_not_found(srv, "/v1/players/nobody");

    /* The history, oldest first. */
    snprintf(path, sizeof path, "/v1/players/%s/ratings/classic", a.id);
    j = get_json(srv, path);
    CHECK(j, "GET %s", path);
    ok = jnum(j, "rating.rating") == 1700 && cJSON_GetArraySize(jget(j, "history")) == 2 &&
         jnum(j, "history.0.rating_before") == 1500 && jnum(j, "history.0.place") == 1 &&
         jnum(j, "history.1.place") == 3 && jnum(j, "history.1.seats") == 4 &&
         jnum(j, "history.1.rating_after") == 1700;
    cJSON_Delete(j);
    CHECK(ok, "history");
    snprintf(path, sizeof path, "/v1/players/%s/ratings/classic?limit=1", a.id);
    j = get_json(srv, path);
    CHECK(j && cJSON_GetArraySize(jget(j, "history")) == 1 &&
              strcmp(jstr(j, "history.0.game_id"), h[2]) == 0,
          "history ?limit=1: the newest");
    cJSON_Delete(j);
    snprintf(path, sizeof path, "/v1/players/%s/ratings/discovery", b.id);
    j = get_json(srv, path);
    CHECK(j && jnum(j, "rating.rating") == 1500 && jnum(j, "rating.deviation") == 350 &&
              cJSON_GetArraySize(jget(j, "history")) == 0,
          "a pool without games: 1500 / 350, no history");
    cJSON_Delete(j);
    snprintf(path, sizeof path, "/v1/players/%s/ratings/chess", a.id);
    expect_not_found(srv, path);
    expect_not_found(srv, "/v1/players/aaaaaaaa-0000-4000-8000-00000000000f/ratings/classic");
    snprintf(path, sizeof path, "/v1/players/%s/ratings/classic?limit=0", a.id);
    CHECK(status_of(srv, path, code) == 400 && strcmp(code, "invalid_parameter") == 0,
          "limit=0: %s", code);

    /* The leaderboard: Bob, then Ann (Cy inactive, Dee provisional by now, the bot left
     * out); pages by cursor. */
    j = get_json(srv, "/v1/leaderboards/classic?limit=1");
    CHECK(j, "leaderboard");
    ok = cJSON_GetArraySize(jget(j, "entries")) == 1 && jnum(j, "entries.0.rank") == 1 &&
         strcmp(jstr(j, "entries.0.name"), "Bob") == 0 &&
         strcmp(jstr(j, "entries.0.player_id"), b.id) == 0 && *jstr(j, "next_cursor");
    char cursor[160];
    snprintf(cursor, sizeof cursor, "%s", jstr(j, "next_cursor"));
    cJSON_Delete(j);
    CHECK(ok, "leaderboard page 1");
    snprintf(path, sizeof path, "/v1/leaderboards/classic?limit=1&cursor=%s", cursor);
    j = get_json(srv, path);
    CHECK(j, "GET %s", path);
    ok = cJSON_GetArraySize(jget(j, "entries")) == 1 && jnum(j, "entries.0.rank") == 2 &&
         strcmp(jstr(j, "entries.0.name"), "Ann") == 0 && cJSON_IsNull(jget(j, "next_cursor"));
    cJSON_Delete(j);
    CHECK(ok, "leaderboard page 2");
    /* The cursor with its subject in capitals is not one the list gave. */
    char *subject = strrchr(cursor, '.');
    for (char *ch = subject ? subject : cursor; *ch; ch++)
        if (*ch >= 'a' && *ch <= 'f') *ch = (char)(*ch - 'a' + 'A');
    snprintf(path, sizeof path, "/v1/leaderboards/classic?limit=1&cursor=%s", cursor);
    CHECK(status_of(srv, path, code) == 400 && strcmp(code, "invalid_parameter") == 0,
          "a cursor in capitals: %s", code);
    j = get_json(srv, "/v1/leaderboards/classic?bots=true");
    CHECK(j && cJSON_GetArraySize(jget(j, "entries")) == 3 &&
              strcmp(jstr(j, "entries.0.bot"), "mcts") == 0 &&
              strcmp(jstr(j, "entries.0.think_class"), "slow") == 0 &&
              cJSON_IsNull(jget(j, "entries.0.player_id")),
          "leaderboard with bots");
    cJSON_Delete(j);
    j = get_json(srv, "/v1/leaderboards/hills");
    CHECK(j && cJSON_GetArraySize(jget(j, "entries")) == 0, "hills: Ann is provisional");
    cJSON_Delete(j);
    expect_not_found(srv, "/v1/leaderboards/chess");
    static const char *const bad[] = {
        "/v1/leaderboards/classic?limit=101", "/v1/leaderboards/classic?bots=yes",
        "/v1/leaderboards/classic?cursor=x", "/v1/leaderboards/classic?cursor=1.zz.bot:a:b",
        "/v1/leaderboards/classic?cursor=1.4099000000000000.bot:mcts:quick"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK(status_of(srv, bad[i], code) == 400 && strcmp(code, "invalid_parameter") == 0,
              "%s: %s", bad[i], code);

    /* The computer players: every level and think class, mcts slow rated in classic. */
    j = get_json(srv, "/v1/bots");
    CHECK(j && cJSON_GetArraySize(jget(j, "bots")) == 12, "bots");
    ok = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, jget(j, "bots"))
    {
        if (strcmp(jstr(e, "level"), "mcts") == 0 && strcmp(jstr(e, "think_class"), "slow") == 0)
            ok = jnum(e, "ratings.classic.rating") == 2000 &&
                 cJSON_IsFalse(jget(e, "ratings.classic.provisional"));
        else if (jget(e, "ratings.classic"))
            ok = -1000;
    }
    cJSON_Delete(j);
    CHECK(ok == 1, "bots: mcts slow rated, the others not");
}
