/* games_create_test.c: the creation of games in one pipelined transaction
 * (store_games_create, api/store/store_pipe.c) against a real PostgreSQL (`make
 * test-api-db`): every game's rows are written; a batch in which one game's check misses (a
 * seek no longer waiting) or one statement fails (a duplicate id) writes nothing at all and
 * answers the right status; and the thread's connection is left out of pipeline mode and
 * usable, so that the next creation on it succeeds. The rows are read back with libpq. */
#include <criterion/criterion.h>
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apidb.h"
#include "auth.h"
#include "store.h"
#include "store_games.h"

static PGconn *check; /* the test's own connection, to read what the store wrote */

static void setup(void)
{
    check = apidb_open("TRUNCATE games, events, actions, jobs CASCADE");
}

static void teardown(void)
{
    apidb_close(check);
}

TestSuite(games_create, .init = setup, .fini = teardown);

#define GAME_A  "bbbbbbbb-0000-4000-8000-00000000000a"
#define GAME_B  "bbbbbbbb-0000-4000-8000-00000000000b"
#define GAME_C  "bbbbbbbb-0000-4000-8000-00000000000c"
#define NO_SEEK "cccccccc-0000-4000-8000-000000000001"

/* A two-seat game `id` in *g (its players in p[2]), as the service would store it. */
static void new_game(const char *id, struct store_new_game *g, struct store_player p[2])
{
    static const uint8_t snapshot[4] = {1, 2, 3, 4};
    memset(p, 0, 2 * sizeof *p);
    for (int s = 0; s < 2; s++) {
        snprintf(p[s].name, sizeof p[s].name, "P%d", s);
        cr_assert_eq(auth_sha256(p[s].name, strlen(p[s].name), p[s].token_hash), 0);
    }
    *g = (struct store_new_game){.id = id,
                                 .ruleset = "classic",
                                 .options_json = "{}",
                                 .seed = 7,
                                 .status = "active",
                                 .last_seq = 1,
                                 .snapshot = snapshot,
                                 .snapshot_len = sizeof snapshot,
                                 .nplayers = 2,
                                 .players = p,
                                 .events_json = "[{\"seq\":1,\"type\":\"game_created\"}]"};
}

/* The count answered by `sql` (no parameters). */
static long count(const char *sql)
{
    PGresult *r = PQexec(check, sql);
    cr_assert_eq(PQresultStatus(r), PGRES_TUPLES_OK, "%s", PQerrorMessage(check));
    long n = strtol(PQgetvalue(r, 0, 0), NULL, 10);
    PQclear(r);
    return n;
}

/* Games, players and events stored. */
static void stored(long games, long players, long events)
{
    cr_expect_eq(count("SELECT count(*) FROM games"), games);
    cr_expect_eq(count("SELECT count(*) FROM players"), players);
    cr_expect_eq(count("SELECT count(*) FROM events"), events);
}

/* The batch of `a` then `b` is refused with `status`, and writes nothing; the thread's
 * connection is out of the pipeline, its transaction ended: the next creation on it works. */
static void refused_whole(const struct store_new_game *a, const struct store_new_game *b,
                          enum store_status status)
{
    const struct store_new_game *batch[2] = {a, b};
    cr_assert_eq(store_games_create(batch, 2), status);
    stored(0, 0, 0);
    struct store_new_game c;
    struct store_player pc[2];
    new_game(GAME_C, &c, pc);
    cr_assert_eq(store_game_create(&c), STORE_OK);
    stored(1, 2, 1);
}

Test(games_create, batch_writes_every_game)
{
    struct store_new_game a, b;
    struct store_player pa[2], pb[2];
    new_game(GAME_A, &a, pa);
    new_game(GAME_B, &b, pb);
    const struct store_new_game *batch[2] = {&a, &b};
    cr_assert_eq(store_games_create(batch, 2), STORE_OK);
    stored(2, 4, 2);
    cr_expect_eq(count("SELECT count(*) FROM players WHERE game_id = '" GAME_B "' AND seat = 1 "
                       "AND name = 'P1'"),
                 1);
}

Test(games_create, a_missed_check_writes_nothing)
{
    struct store_new_game a, b;
    struct store_player pa[2], pb[2];
    new_game(GAME_A, &a, pa);
    new_game(GAME_B, &b, pb);
    b.nseeks = 1; /* a seek that does not wait (there is none): the bind finds 0 of 1 */
    b.seek_ids = "{" NO_SEEK "}";
    b.seek_seats = "{0}";
    refused_whole(&a, &b, STORE_CONFLICT);
}

Test(games_create, a_failed_statement_writes_nothing)
{
    struct store_new_game a, b;
    struct store_player pa[2], pb[2];
    new_game(GAME_A, &a, pa);
    new_game(GAME_A, &b, pb); /* the same id twice: the second insert fails */
    refused_whole(&a, &b, STORE_DUPLICATE);
}
