/* ratings_store_test.c: the ratings' store (api/store/store_ratings.c, migrations/0023) against a
 * real PostgreSQL (`make test-api-db`: a fresh database of the throwaway cluster, migrated
 * here): a rated game's update writes each seat's row and history once, with the numbers
 * of ratings_update_game; a second update of the same game is refused and changes
 * nothing; computer players are rated per level and think class; a game that seats one
 * rating twice is left unrated. The rows are read back with libpq directly. */
#include <criterion/criterion.h>
#include <libpq-fe.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apidb.h"
#include "auth.h"
#include "store.h"
#include "store_ratings.h"
#include "store_people.h"

static PGconn *check; /* the test's own connection, to read what the store wrote */

static void setup(void)
{
    check = apidb_open("TRUNCATE ratings, rating_history, people CASCADE");
}

static void teardown(void)
{
    apidb_close(check);
}

/* Makes a person with id `id` (a UUID) and name `name`. */
static void person(const char *id, const char *name)
{
    struct store_person p;
    memset(&p, 0, sizeof p);
    snprintf(p.id, sizeof p.id, "%s", id);
    snprintf(p.name, sizeof p.name, "%s", name);
    cr_assert_eq(auth_sha256(id, strlen(id), p.token_hash), 0);
    cr_assert_eq(store_person_create(&p, NULL), STORE_OK);
}

/* The single value answered by `sql` with parameter `arg`, as a double. */
static double value(const char *sql, const char *arg)
{
    const char *vals[1] = {arg};
    PGresult *r = PQexecParams(check, sql, arg ? 1 : 0, NULL, vals, NULL, NULL, 0);
    cr_assert_eq(PQresultStatus(r), PGRES_TUPLES_OK, "%s", PQerrorMessage(check));
    cr_assert_eq(PQntuples(r), 1);
    double v = strtod(PQgetvalue(r, 0, 0), NULL);
    PQclear(r);
    return v;
}

#define ALICE "11111111-1111-4111-8111-111111111111"
#define BOB   "22222222-2222-4222-8222-222222222222"
#define GAME1 "aaaaaaaa-0000-4000-8000-000000000001"
#define GAME2 "aaaaaaaa-0000-4000-8000-000000000002"

TestSuite(ratings_store, .init = setup, .fini = teardown);

/* Alice and Bob, new, play classic game GAME1 (`g`): Alice 80, Bob 95; rated into `ch`. */
static void alice_loses_to_bob(struct ratings_game *g, struct ratings_change ch[2])
{
    person(ALICE, "alice");
    person(BOB, "bob");
    *g = (struct ratings_game){.game_id = GAME1, .pool = "classic", .nseats = 2};
    g->seats[0] = (struct ratings_game_seat){.person_id = ALICE, .score = 80};
    g->seats[1] = (struct ratings_game_seat){.person_id = BOB, .score = 95};
    cr_assert_eq(store_ratings_apply(g, ch), STORE_OK);
}

Test(ratings_store, two_people_once)
{
    struct ratings_game g;
    struct ratings_change ch[2];
    alice_loses_to_bob(&g, ch);
    cr_expect(ch[0].rated && ch[1].rated);
    cr_expect_eq(ch[0].place, 1);
    cr_expect_eq(ch[1].place, 0);
    cr_expect_eq(ch[0].before.rating, 1500);
    cr_expect_eq(ch[0].games, 1);
    /* The same numbers as the pure update of two new players (ratings_test.c). */
    cr_expect(fabs(ch[1].after.rating - 1662.2120) < 0.001, "%f", ch[1].after.rating);
    cr_expect(fabs(ch[0].after.rating - 1337.7880) < 0.001, "%f", ch[0].after.rating);
    cr_expect(fabs(value("SELECT rating FROM ratings WHERE subject = $1", BOB) - 1662.2120) <
              0.001);
    cr_expect_eq(value("SELECT won FROM ratings WHERE subject = $1", BOB), 1);
    cr_expect_eq(value("SELECT lost FROM ratings WHERE subject = $1", ALICE), 1);
    cr_expect_eq(value("SELECT count(*) FROM rating_history WHERE game_id = $1", GAME1), 2);
    cr_expect(fabs(value("SELECT rating_after - rating_before FROM rating_history WHERE "
                         "subject = $1",
                         ALICE) -
                   (1337.7880 - 1500)) < 0.001);

    /* The same game again: refused by the history's key, nothing changed. */
    struct ratings_change again[2];
    cr_expect_eq(store_ratings_apply(&g, again), STORE_DUPLICATE);
    cr_expect(fabs(value("SELECT rating FROM ratings WHERE subject = $1", BOB) - 1662.2120) <
              0.001);
    cr_expect_eq(value("SELECT games FROM ratings WHERE subject = $1", BOB), 1);
    cr_expect_eq(value("SELECT count(*) FROM rating_history WHERE game_id = $1", GAME1), 2);

    /* A second game starts from the stored ratings. */
    g.game_id = GAME2;
    g.seats[0].score = 100;
    cr_assert_eq(store_ratings_apply(&g, ch), STORE_OK);
    cr_expect(fabs(ch[1].before.rating - 1662.2120) < 0.001);
    cr_expect_eq(ch[1].games, 2);
    cr_expect(ch[0].after.rating > ch[0].before.rating);
    cr_expect_eq(value("SELECT games FROM ratings WHERE subject = $1", ALICE), 2);
}

/* A seat's "before" is what it brought to the game: its deviation aged by the time since its
 * last rated game, as the update used it; the history keeps the stored value (a chain). */
Test(ratings_store, before_is_aged_by_time_away)
{
    struct ratings_game g;
    struct ratings_change ch[2];
    alice_loses_to_bob(&g, ch);
    /* Bob's last rated game 100 days ago; Alice's just now. */
    PGresult *r = PQexecParams(check,
                               "UPDATE ratings SET last_rated_at = now() - interval '100 days' "
                               "WHERE subject = $1",
                               1, NULL, (const char *[]){BOB}, NULL, NULL, 0);
    cr_assert_eq(PQresultStatus(r), PGRES_COMMAND_OK, "%s", PQerrorMessage(check));
    PQclear(r);
    double stored = value("SELECT deviation FROM ratings WHERE subject = $1", BOB);
    double volatility = value("SELECT volatility FROM ratings WHERE subject = $1", BOB);
    g.game_id = GAME2;
    cr_assert_eq(store_ratings_apply(&g, ch), STORE_OK);
    struct glicko2_rating was = {
        .rating = 1662.2120, .deviation = stored, .volatility = volatility};
    struct glicko2_rating aged = glicko2_aged(&was, glicko2_periods(100LL * 86400000));
    cr_expect(aged.deviation > stored + 1, "%f %f", aged.deviation, stored);
    cr_expect(fabs(ch[1].before.deviation - aged.deviation) < 0.01, "%f, aged %f",
              ch[1].before.deviation, aged.deviation);
    /* Alice played a moment ago: hers grew by (almost) nothing. */
    double alice = value("SELECT deviation_after FROM rating_history WHERE subject = $1 AND "
                         "game_id = '" GAME1 "'",
                         ALICE);
    cr_expect(fabs(ch[0].before.deviation - alice) < 0.01, "%f %f", ch[0].before.deviation, alice);
    cr_expect(fabs(value("SELECT deviation_before FROM rating_history WHERE subject = $1 AND "
                         "game_id = '" GAME2 "'",
                         BOB) -
                   stored) < 1e-9);
}

/* Computer players: one rating per level and think class; a resignation is last. */
Test(ratings_store, bots_by_level_and_think_class)
{
    person(ALICE, "alice");
    struct ratings_game g = {.game_id = GAME1, .pool = "hills", .nseats = 4};
    g.seats[0] = (struct ratings_game_seat){.person_id = ALICE, .score = 10, .out_at = 30};
    g.seats[1] = (struct ratings_game_seat){.bot = "greedy", .think_ms = 50, .score = 70};
    g.seats[2] = (struct ratings_game_seat){.bot = "greedy", .think_ms = 500, .score = 60};
    g.seats[3] = (struct ratings_game_seat){.bot = "mcts", .think_ms = 2000, .score = 90};
    struct ratings_change ch[4];
    cr_assert_eq(store_ratings_apply(&g, ch), STORE_OK);
    cr_expect_str_eq(ch[1].subject, "bot:greedy:fast");
    cr_expect_str_eq(ch[2].subject, "bot:greedy:normal");
    cr_expect_str_eq(ch[3].subject, "bot:mcts:slow");
    cr_expect_eq(ch[0].place, 3);
    cr_expect_eq(ch[3].place, 0);
    cr_expect_eq(value("SELECT count(*) FROM ratings WHERE pool = $1", "hills"), 4);
    cr_expect_eq(value("SELECT count(*) FROM ratings WHERE bot IS NOT NULL AND pool = $1", "hills"),
                 3);
    cr_expect_eq(value("SELECT count(*) FROM ratings WHERE pool = $1", "classic"), 0);
}

/* One rating in two seats: the game is left unrated, nothing written. */
Test(ratings_store, one_rating_twice_is_unrated)
{
    struct ratings_game g = {.game_id = GAME1, .pool = "classic", .nseats = 3};
    g.seats[0] = (struct ratings_game_seat){.bot = "greedy", .think_ms = 50, .score = 70};
    g.seats[1] = (struct ratings_game_seat){.bot = "random", .think_ms = 50, .score = 60};
    g.seats[2] = (struct ratings_game_seat){.bot = "greedy", .think_ms = 80, .score = 10};
    struct ratings_change ch[3];
    cr_assert_eq(store_ratings_apply(&g, ch), STORE_OK);
    cr_expect(!ch[0].rated && !ch[1].rated && !ch[2].rated);
    cr_expect_eq(value("SELECT count(*) FROM ratings", NULL), 0);
    cr_expect_eq(value("SELECT count(*) FROM rating_history", NULL), 0);
    /* Out of shape: a seat with no one, a pool that is not plain. */
    g.seats[2] = (struct ratings_game_seat){.score = 10};
    cr_expect_eq(store_ratings_apply(&g, ch), STORE_ERROR);
    g.seats[2] = (struct ratings_game_seat){.bot = "mcts", .think_ms = 80};
    g.pool = "classic'; --";
    cr_expect_eq(store_ratings_apply(&g, ch), STORE_ERROR);
    cr_expect_eq(value("SELECT count(*) FROM ratings", NULL), 0);
}

/* Runs `sql` on the test's connection. */
static void exec(const char *sql)
{
    PGresult *r = PQexec(check, sql);
    cr_assert(PQresultStatus(r) == PGRES_COMMAND_OK, "%s", PQerrorMessage(check));
    PQclear(r);
}

/* The leaderboard: settled and active only, best first, people only unless asked, pages
 * that neither repeat nor skip; a profile and a history read back. */
Test(ratings_store, leaderboard_pages)
{
    person("11111111-0000-4000-8000-000000000001", "p1");
    person("11111111-0000-4000-8000-000000000002", "p2");
    person("11111111-0000-4000-8000-000000000003", "p3");
    person("11111111-0000-4000-8000-000000000004", "p4");
    person("11111111-0000-4000-8000-000000000005", "p5");
    exec("INSERT INTO ratings (subject, pool, person_id, rating, deviation, volatility, games, "
         "last_rated_at) SELECT id::text, 'classic', id, r, d, 0.06, 30, now() - a * interval "
         "'1 day' FROM people JOIN (VALUES ('p1', 1700.0, 60.0, 1), ('p2', 1800.0, 80.0, 2), "
         "('p3', 1750.0, 200.0, 3), ('p4', 1900.0, 70.0, 100), ('p5', 1700.0, 50.0, 5)) AS v(n, "
         "r, d, a) ON v.n = people.name");
    exec("INSERT INTO ratings (subject, pool, bot, think_class, rating, deviation, volatility, "
         "games, last_rated_at) VALUES ('bot:mcts:slow', 'classic', 'mcts', 'slow', 1850, 40, "
         "0.06, 500, now())");
    /* p4 is inactive (100 days), p3 provisional: p2 1800, then p1 and p5 at 1700 (by subject,
     * descending: p5 before p1). */
    struct store_board_after top = {INFINITY, ""};
    struct store_rating_list l;
    cr_assert_eq(store_leaderboard("classic", 0, 2, &top, &l), STORE_OK);
    cr_assert_eq(l.n, 2);
    cr_expect(l.more);
    cr_expect_str_eq(l.rows[0].name, "p2");
    cr_expect_str_eq(l.rows[1].name, "p5");
    struct store_board_after next = {l.rows[1].rating.rating, ""};
    snprintf(next.subject, sizeof next.subject, "%s", l.rows[1].subject);
    store_ratings_free(&l);
    cr_assert_eq(store_leaderboard("classic", 0, 2, &next, &l), STORE_OK);
    cr_assert_eq(l.n, 1);
    cr_expect(!l.more);
    cr_expect_str_eq(l.rows[0].name, "p1");
    store_ratings_free(&l);
    cr_assert_eq(store_leaderboard("classic", 1, 10, &top, &l), STORE_OK);
    cr_assert_eq(l.n, 4);
    cr_expect_str_eq(l.rows[0].subject, "bot:mcts:slow");
    cr_expect_str_eq(l.rows[0].name, "mcts");
    store_ratings_free(&l);
    cr_assert_eq(store_leaderboard("hills", 1, 10, &top, &l), STORE_OK);
    cr_expect_eq(l.n, 0);
    store_ratings_free(&l);

    cr_assert_eq(store_bot_ratings(&l), STORE_OK);
    cr_assert_eq(l.n, 1);
    cr_expect_str_eq(l.rows[0].think_class, "slow");
    store_ratings_free(&l);

    char name[STORE_NAME_MAX + 1];
    cr_assert_eq(store_ratings_of_person("11111111-0000-4000-8000-000000000002", name, &l),
                 STORE_OK);
    cr_expect_str_eq(name, "p2");
    cr_assert_eq(l.n, 1);
    cr_expect_eq(l.rows[0].rating.rating, 1800);
    cr_expect(l.now_ms - l.rows[0].last_rated_ms > 86400000LL);
    store_ratings_free(&l);
    cr_expect_eq(store_ratings_of_person("11111111-0000-4000-8000-00000000000f", name, &l),
                 STORE_NOT_FOUND);
}

Test(ratings_store, history_oldest_first)
{
    struct ratings_game g;
    struct ratings_change ch[2];
    alice_loses_to_bob(&g, ch);
    g.game_id = GAME2;
    g.seats[0].score = 100;
    cr_assert_eq(store_ratings_apply(&g, ch), STORE_OK);
    struct store_rating_list l;
    cr_assert_eq(store_rating_history(ALICE, "classic", 10, &l), STORE_OK);
    cr_assert_eq(l.n, 2);
    cr_expect_str_eq(l.points[0].game_id, GAME1);
    cr_expect_eq(l.points[0].place, 1);
    cr_expect_eq(l.points[1].place, 0);
    cr_expect_eq(l.points[1].before.rating, l.points[0].after.rating);
    store_ratings_free(&l);
    cr_assert_eq(store_rating_history(ALICE, "classic", 1, &l), STORE_OK);
    cr_assert_eq(l.n, 1);
    cr_expect_str_eq(l.points[0].game_id, GAME2);
    store_ratings_free(&l);
}

#define CHAIN_GAMES 25 /* games each of the two threads rates */

/* One thread's games: CHAIN_GAMES games of Alice, Bob and a bot, seated in the order
 * `order` gives (the other thread seats them the other way round). */
static void *rate_games(void *arg)
{
    int order = *(const int *)arg;
    long failures = 0;
    for (int i = 0; i < CHAIN_GAMES; i++) {
        char id[40];
        snprintf(id, sizeof id, "bbbbbbbb-0000-4000-8000-%06d%06d", order, i);
        struct ratings_game g = {.game_id = id, .pool = "classic", .nseats = 3};
        struct ratings_game_seat s[3] = {{.person_id = ALICE, .score = i % 3},
                                         {.person_id = BOB, .score = i % 2},
                                         {.bot = "greedy", .think_ms = 50, .score = 1}};
        for (int k = 0; k < 3; k++) g.seats[k] = s[order ? 2 - k : k];
        struct ratings_change ch[3];
        if (store_ratings_apply(&g, ch) != STORE_OK) failures++;
    }
    return (void *)failures;
}

/* Two servers' games ending at once over the same ratings, their seats in opposite orders:
 * every update commits (rows locked in one order: no deadlock), none is lost (each history
 * row starts from the rating the one before it left). */
Test(ratings_store, games_ending_at_once)
{
    person(ALICE, "alice");
    person(BOB, "bob");
    pthread_t t[2];
    int orders[2] = {0, 1};
    for (int i = 0; i < 2; i++)
        cr_assert_eq(pthread_create(&t[i], NULL, rate_games, &orders[i]), 0);
    for (int i = 0; i < 2; i++) {
        void *failures;
        pthread_join(t[i], &failures);
        cr_expect_eq((long)failures, 0, "thread %d: %ld updates failed", i, (long)failures);
    }
    cr_expect_eq(value("SELECT games FROM ratings WHERE subject = $1", ALICE), 2 * CHAIN_GAMES);
    cr_expect_eq(value("SELECT games FROM ratings WHERE subject = $1", "bot:greedy:fast"),
                 2 * CHAIN_GAMES);
    /* The chain: in the order they were rated, every point's before is the after of the point
     * before it, and the row holds the last one's after. */
    cr_expect_eq(value("SELECT count(*) FROM (SELECT rating_before, lag(rating_after) OVER (ORDER "
                       "BY rated_at) AS prev FROM "
                       "rating_history WHERE subject = $1) x WHERE prev IS NOT NULL AND "
                       "prev <> rating_before",
                       ALICE),
                 0);
    cr_expect(fabs(value("SELECT rating FROM ratings WHERE subject = $1", ALICE) -
                   value("SELECT rating_after FROM rating_history WHERE subject = $1 ORDER BY "
                         "rated_at DESC LIMIT 1",
                         ALICE)) < 1e-9);
}
