/* clocks_run.c: what happens at a clock's deadline and before it: the handlers of the job
 * kinds "deadline" and "deadline_near" -- see clocks.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bots.h"
#include "clocks.h"
#include "clocks_run.h"
#include "game/service.h"
#include "games.h"
#include "jobs.h"
#include "log.h"
#include "store_games.h"
#include "store_jobs.h"

#define EARLY_WAIT_MS 2000 /* a deadline claimed this early is waited for */

/* Loads the game of job `j` for a clock's handler: NULL with *r set when there is nothing
 * to do (JOBS_DROP) or it failed (JOBS_RETRY). */
static struct api_game *load_for(const struct store_job *j, enum jobs_result *r)
{
    enum games_fail why;
    struct api_game *ag = games_fetch(j->game, GAMES_DB, -1, &why);
    if (!ag) {
        *r = why == GAMES_NOT_FOUND ? JOBS_DROP : JOBS_RETRY;
        return NULL;
    }
    /* Nothing to time in a game that is over, aborted or still waiting for open seats
     * (routes_lobby.c begins the clock with the last join). */
    if (!ag->row.clock.kind || ag->g.phase == CC_PHASE_FINISHED || ag->row.state != STORE_PLAYING) {
        games_free(ag);
        *r = JOBS_DROP;
        return NULL;
    }
    return ag;
}

/* Sleeps `ms` milliseconds. */
static void sleep_ms(long long ms)
{
    struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

enum jobs_result clocks_play_timeout(struct api_game **agp)
{
    enum jobs_result r = JOBS_DONE;
    struct api_game *ag = *agp;
    struct store_clock *cl = &ag->row.clock;
    unsigned seat = ag->g.seat;
    int turn = ag->g.turn;
    int resign = cl->resign || cl->timeouts[seat] + (cl->timed_out ? 0 : 1) >= CLOCKS_TIMEOUTS_MAX;
    for (int step = 0; step < 4 && ag; step++) {
        struct game_play p = {.by = GAME_BY_CLOCK};
        struct cc_action *a = &p.action;
        if (resign) {
            a->kind = CC_ACTION_RESIGN;
            a->tile = CC_NO_TILE;
        } else {
            const char *used = NULL;
            enum cc_status st =
                bots_play_turn(&ag->g, "greedy", 0, bots_seed(ag->id, &ag->g), a, &used);
            if (st != CC_OK) {
                log_kv(LOG_ERROR, "no move for a timed-out seat", "game", ag->id, "status",
                       cc_status_name(st), NULL);
                r = JOBS_RETRY;
                goto out;
            }
        }
        a->seat = (uint8_t)seat;
        p.place = a->kind != CC_ACTION_DRAW;
        struct game_result res;
        enum game_outcome rc = game_play(&ag, &p, &res);
        game_result_free(&res);
        if (game_outcome_moved_on(rc)) goto out; /* another server acted: its commit moved on */
        if (rc != GAME_COMMITTED) {
            r = JOBS_RETRY;
            goto out;
        }
        if (ag->g.phase == CC_PHASE_FINISHED || ag->g.seat != seat || ag->g.turn != turn) goto out;
    }
out:
    *agp = ag;
    return r;
}

/* jobs_kind.run of "deadline": the turn of the seat to move is over. With autoplay its
 * whole turn is played (draw and placement) as greedy would, or on its third timeout in a
 * row, and with "resign" at once, it resigns (clocks_play_timeout); every action through
 * the normal commit, guarded by the version, so that two servers acting on one deadline
 * act once. */
static enum jobs_result deadline_run(const struct store_job *j)
{
    enum jobs_result r = JOBS_DONE;
    struct api_game *ag = load_for(j, &r);
    if (!ag) return r;
    long long early = ag->row.clock.deadline_ms - clocks_now_ms();
    if (early <= EARLY_WAIT_MS) { /* else claimed before its time: the lease brings it back */
        if (early > 0) sleep_ms(early);
        r = clocks_play_timeout(&ag);
    }
    games_free(ag);
    return r;
}

/* jobs_kind.run of "deadline_near": a deadline_near event, once a turn, committed on its
 * own (no action; the version moves on as for every commit of events). */
static enum jobs_result near_run(const struct store_job *j)
{
    enum jobs_result r = JOBS_DONE;
    struct api_game *ag = load_for(j, &r);
    if (!ag) return r;
    struct store_clock *cl = &ag->row.clock;
    if (cl->near_sent || clocks_expired(cl, &ag->g)) {
        games_free(ag);
        return JOBS_DROP;
    }
    char events[256];
    r = JOBS_RETRY;
    if (clocks_json_near(cl, ag->row.last_seq + 1, events, sizeof events)) goto out;
    cl->near_sent = 1;
    /* The other kinds' plan as every commit writes it, and this job removed. */
    struct store_jobs plan = {0};
    jobs_plan(&ag->g, ag->row.players, &plan);
    store_jobs_add(&plan, (struct store_job_plan){.kind = "deadline_near", .remove = 1});
    struct game_change ch = {.events_json = events, .nev = 1, .seat = cl->turn_seat, .jobs = &plan};
    enum store_status ss;
    enum game_outcome gc = game_commit_change(ag, &ch, GAME_BY_SERVER, &ss);
    if (gc == GAME_COMMITTED || gc == GAME_CONFLICT) r = JOBS_DONE;
out:
    games_free(ag);
    return r;
}

/* Clocks write their jobs themselves (clocks_commit: a kind's plan cannot see the clock). The
 * fast lane: a deadline never waits behind a computer player's thinking. */
static const struct jobs_kind deadline_kind = {"deadline", NULL, deadline_run, JOBS_LANE_FAST};
static const struct jobs_kind near_kind = {"deadline_near", NULL, near_run, JOBS_LANE_FAST};

int clocks_init(void)
{
    return jobs_register(&deadline_kind) || jobs_register(&near_kind) ? -1 : 0;
}
