/* tourney_sweep.c: the sweep of a tournament's leavers -- see tourney_sweep.h. */
#include "tourney_sweep.h"

#include "auth.h"
#include "game/service.h"
#include "jobs.h"
#include "log.h"
#include "store_jobs.h"
#include "store_tourney_rounds.h"

#define SWEEP_READ_MAX 64   /* seats read a run */
#define SWEEP_AGAIN_MS 1000 /* a full read may have left more: the next run after this */

/* jobs_kind.run: tournament `j->subject`'s leavers' seats resigned. */
static enum jobs_result tourney_sweep(const struct store_job *j)
{
    if (j->game[0] || !auth_uuid_valid(j->subject)) return JOBS_DROP;
    struct store_left_seat left[SWEEP_READ_MAX];
    int n = 0, failed = 0;
    if (store_tourney_left_seats(j->subject, left, SWEEP_READ_MAX, &n) != STORE_OK)
        return JOBS_RETRY;
    for (int i = 0; i < n; i++) {
        if (game_resign_seat(left[i].game, left[i].seat) == 0) {
            log_kv(LOG_INFO, "tournament sweep: a leaver's seat resigned", "tournament", j->subject,
                   "game", left[i].game, NULL);
            continue;
        }
        log_kv(LOG_WARN, "tournament sweep: a leaver's seat not resigned", "tournament", j->subject,
               "game", left[i].game, NULL);
        failed = 1;
    }
    if (failed) return JOBS_RETRY; /* a commit that failed: again after the backoff */
    if (n == SWEEP_READ_MAX)
        return store_job_plan_free(STORE_TOURNEY_SWEEP_KIND, j->subject, SWEEP_AGAIN_MS,
                                   STORE_TOURNEY_SWEEP_LEASE_MS, j) == STORE_OK
                   ? JOBS_DONE
                   : JOBS_RETRY;
    /* Done, unless a leave or a round planned it again during the run. */
    return store_job_drop_free(j) == STORE_OK ? JOBS_DONE : JOBS_RETRY;
}

/* The fast lane: resignations take no thought. */
static const struct jobs_kind sweep_kind = {STORE_TOURNEY_SWEEP_KIND, NULL, tourney_sweep,
                                            JOBS_LANE_FAST};

int tourney_sweep_init(void)
{
    return jobs_register(&sweep_kind);
}
