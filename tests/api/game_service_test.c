/* game_service_test.c: the game service's pure parts: how an ending is stored, what an
 * outcome means for a job worker, a replay's weight in the creation limit, and job plans
 * as structs (full, and their text for the database). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "game/service.h"
#include "store_games.h"

Test(game_service, endings)
{
    struct cc_game *g = calloc(1, sizeof *g);
    cr_assert(g);
    cr_expect_str_eq(game_end_result(g, GAME_ENDS_TIMEOUT), "timeout");
    cr_expect_null(game_end_result(g, GAME_ENDS_ABORTED), "an abort's status says it");
    cr_expect_null(game_end_result(g, GAME_ENDS_EXPIRED), "an expiry's status says it");
    free(g);
}

Test(game_service, outcomes_for_workers)
{
    cr_expect(game_outcome_moved_on(GAME_CONFLICT));
    cr_expect(game_outcome_moved_on(GAME_TURN_TIMED_OUT));
    cr_expect(!game_outcome_moved_on(GAME_COMMITTED));
    cr_expect(!game_outcome_moved_on(GAME_STORE_FAILED));
    cr_expect(game_outcome_failed(GAME_STORE_FAILED));
    cr_expect(!game_outcome_failed(GAME_REFUSED));
    cr_expect(game_outcome_failed((enum game_outcome)99), "an unknown outcome is a failure");
    cr_expect_str_eq(game_outcome_name(GAME_NOT_ACTIVE), "game_not_active");
    cr_expect_str_eq(game_outcome_name((enum game_outcome)99), "unknown");
}

Test(game_service, replay_weight)
{
    cr_expect_eq(game_limit_weight(0), 1, "at least one creation");
    cr_expect_eq(game_limit_weight(GAME_LIMIT_BYTES - 1), 1);
    cr_expect_eq(game_limit_weight(190 * 1024), 47, "a long game's replay");
    /* Without a limit (CREATE_LIMIT_PER_MINUTE=0) every creation passes. */
    cr_expect_eq(game_limit_init(0, 30, 64), 0);
    cr_expect_eq(game_limit_take(NULL, 1000), 0);
    game_limit_free();
}

Test(game_service, job_plans_are_structs)
{
    struct store_jobs p = {0};
    for (int i = 0; i < STORE_JOBS_MAX + 2; i++)
        store_jobs_add(&p, (struct store_job_plan){.kind = "bot", .due_ms = i});
    cr_expect_eq(p.n, STORE_JOBS_MAX, "a full plan keeps what it holds (the rest logged)");
    p = (struct store_jobs){0};
    char buf[STORE_JOBS_JSON_MAX];
    cr_expect_null(store_jobs_json(&p, buf, sizeof buf), "no jobs: no text");
    store_jobs_add(&p, (struct store_job_plan){.kind = "bot", .due_ms = 0});
    store_jobs_add(&p, (struct store_job_plan){.kind = "deadline", .remove = 1});
    cr_expect_str_eq(store_jobs_json(&p, buf, sizeof buf),
                     "[{\"kind\":\"bot\",\"due_ms\":0,\"lease_ms\":10000},"
                     "{\"kind\":\"deadline\",\"due_ms\":null}]");
}
