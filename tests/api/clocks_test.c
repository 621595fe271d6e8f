/* clocks_test.c: a clock's stored JSON read back as written, a bank charged and topped up
 * at a new turn, and the jobs a new turn, a finished game and a same-turn commit write. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "clocks.h"
#include "jobs.h"
#include "store_games.h"

Test(clocks, encode_decode_round_trip)
{
    struct store_clock c = {.kind = STORE_CLOCK_BANK,
                            .initial_seconds = 60,
                            .increment_seconds = 5,
                            .resign = 1,
                            .turn_start_ms = 1764590400123LL,
                            .deadline_ms = 1764590460123LL,
                            .turn_seat = 1,
                            .turn_no = 7,
                            .bank_ms = {59000, 60000},
                            .timeouts = {2, 0},
                            .timed_out = 1,
                            .near_sent = 1};
    char buf[STORE_CLOCK_JSON_MAX];
    const char *txt = store_clock_encode(&c, buf, sizeof buf);
    struct store_clock d;
    cr_assert_eq(store_clock_decode(txt, strlen(txt), &d), 0, "%s", txt);
    cr_assert_eq(memcmp(&c, &d, sizeof c), 0, "%s", txt);
    struct store_clock t = {.kind = STORE_CLOCK_TURN, .turn_seconds = 86400};
    txt = store_clock_encode(&t, buf, sizeof buf);
    cr_assert_eq(store_clock_decode(txt, strlen(txt), &d), 0);
    cr_assert_eq(d.kind, STORE_CLOCK_TURN);
    cr_assert_eq(d.turn_seconds, 86400);
    cr_assert_eq(d.resign, 0);
    cr_assert_neq(store_clock_decode("[1]", 3, &d), 0);
    cr_assert_neq(store_clock_decode("{\"initial_seconds\":0}", 21, &d), 0);
}

Test(clocks, rfc3339)
{
    char d[32];
    clocks_rfc3339(1764590400123LL, d);
    cr_assert_str_eq(d, "2025-12-01T12:00:00.123Z");
}

Test(clocks, jobs_of_a_turn)
{
    struct cc_game *g = calloc(1, sizeof *g);
    cr_assert(g);
    g->nplayers = 2;
    g->phase = CC_PHASE_DRAW;
    struct store_clock c = {.kind = STORE_CLOCK_TURN, .turn_seconds = 100};
    clocks_begin(&c, g, 1000000);
    cr_assert_eq(c.deadline_ms, 1100000);
    char buf[JOBS_JSON_MAX];
    struct store_jobs p = {0};
    clocks_jobs(&c, g, 1, 1000000, &p);
    const char *j = store_jobs_json(&p, buf, sizeof buf);
    cr_assert_str_eq(j, "[{\"kind\":\"deadline\",\"due_ms\":100000,\"lease_ms\":5000},"
                        "{\"kind\":\"deadline_near\",\"due_ms\":75000,\"lease_ms\":5000}]");
    p = (struct store_jobs){.n = 1, .job = {{.kind = "bot", .remove = 1}}};
    clocks_jobs(&c, g, 1, 1000000, &p);
    j = store_jobs_json(&p, buf, sizeof buf);
    cr_assert(strncmp(j, "[{\"kind\":\"bot\",\"due_ms\":null},{\"kind\":\"deadline\"", 48) == 0,
              "%s", j);
    p.n = 0;
    clocks_jobs(&c, g, 0, 1000000, &p);
    cr_assert_null(store_jobs_json(&p, buf, sizeof buf), "same turn: nothing");
    g->phase = CC_PHASE_FINISHED;
    clocks_jobs(&c, g, 0, 1000000, &p);
    j = store_jobs_json(&p, buf, sizeof buf);
    cr_assert_str_eq(j, "[{\"kind\":\"deadline\",\"due_ms\":null},"
                        "{\"kind\":\"deadline_near\",\"due_ms\":null}]");
    /* A day-long quarter at most: a 30-day turn warns a day before. */
    g->phase = CC_PHASE_DRAW;
    struct store_clock m = {.kind = STORE_CLOCK_TURN, .turn_seconds = 2592000};
    clocks_begin(&m, g, 0);
    p.n = 0;
    clocks_jobs(&m, g, 1, 0, &p);
    j = store_jobs_json(&p, buf, sizeof buf);
    cr_assert(strstr(j, "\"deadline_near\",\"due_ms\":2505600000"), "%s", j);
    free(g);
}
