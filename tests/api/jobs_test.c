/* jobs_test.c: the plans of background jobs a commit writes (jobs_plan): nothing for a game
 * no kind cares about, a due entry with its lease, a removal, and the JSON they make
 * (store_jobs_json). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jobs.h"
#include "store_games.h"
#include "store_jobs.h"

/* A kind of its own: due when the seat to move's name is "due", removed for "gone". */
static enum jobs_plan test_plan(const struct cc_game *g, const struct store_player *seats,
                                int *due_ms, int *lease_ms)
{
    const char *name = seats[g->seat].name;
    if (strcmp(name, "due") == 0) {
        *due_ms = 5;
        *lease_ms = 700;
        return JOBS_PLAN_DUE;
    }
    return strcmp(name, "gone") == 0 ? JOBS_PLAN_REMOVE : JOBS_PLAN_NONE;
}

static enum jobs_result test_run(const struct store_job *j)
{
    (void)j;
    return JOBS_DONE;
}

static const struct jobs_kind test_kind = {"test_kind", test_plan, test_run, JOBS_LANE_SLOW};

Test(jobs, plans_as_json)
{
    cr_assert_eq(jobs_register(&test_kind), 0);
    cr_assert_eq(jobs_register(&test_kind), 0, "registering twice is once");
    struct cc_game *g = calloc(1, sizeof *g);
    struct store_player seats[CC_MAX_PLAYERS];
    memset(seats, 0, sizeof seats);
    cr_assert(g);
    g->nplayers = 2;
    g->seat = 1;
    char buf[JOBS_JSON_MAX];
    struct store_jobs p = {0};
    snprintf(seats[1].name, sizeof seats[1].name, "%s", "Ann");
    jobs_plan(g, seats, &p);
    cr_expect_null(store_jobs_json(&p, buf, sizeof buf), "nothing to say: no change");
    snprintf(seats[1].name, sizeof seats[1].name, "%s", "due");
    p.n = 0;
    jobs_plan(g, seats, &p);
    const char *j = store_jobs_json(&p, buf, sizeof buf);
    cr_assert_not_null(j);
    cr_expect_str_eq(j, "[{\"kind\":\"test_kind\",\"due_ms\":5,\"lease_ms\":700}]");
    snprintf(seats[1].name, sizeof seats[1].name, "%s", "gone");
    p.n = 0;
    jobs_plan(g, seats, &p);
    j = store_jobs_json(&p, buf, sizeof buf);
    cr_assert_not_null(j);
    cr_expect_str_eq(j, "[{\"kind\":\"test_kind\",\"due_ms\":null}]");
    snprintf(seats[1].name, sizeof seats[1].name, "%s", "due");
    p.n = 0;
    jobs_plan(g, seats, &p);
    cr_expect_null(store_jobs_json(&p, buf, 20), "a plan that does not fit is none (logged)");
    free(g);
}
