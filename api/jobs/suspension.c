/* suspension.c: a suspended player's seats in running games (issue 28), the job kind
 * "suspension". The operator's suspension makes the job of every active game of the player
 * due at once (ST_PERSON_SUSPEND), and a clocked game's commit that gives the turn to a
 * suspended player's seat makes it due again (the trigger of migrations/0026), both in
 * PostgreSQL, so that any server's workers claim it, exactly once, through restarts. In a
 * game with a clock the seat's turn is played at once by the clock's timeout rule
 * (clocks_play_timeout: the greedy move, or a resignation with "resign" or at the third
 * timeout in a row); in a game without one, the seat resigns. Every action goes through the
 * game service and its version-guarded commit. A reinstated player's seats are left alone. */
#include "suspension.h"

#include <stdio.h>

#include "clocks.h"
#include "clocks_run.h"
#include "game/service.h"
#include "games.h"
#include "jobs.h"
#include "log.h"
#include "store_chat.h"
#include "store_jobs.h"
#include "store_games.h"

/* Resigns every seat of `mask` still in the game *agp (a game without a clock). */
static enum jobs_result resign_seats(struct api_game **agp, unsigned mask)
{
    for (int s = 0; *agp && s < (*agp)->g.nplayers; s++) {
        struct api_game *ag = *agp;
        if (!(mask & (1u << s)) || cc_seat_resigned(&ag->g, (unsigned)s)) continue;
        if (ag->g.phase == CC_PHASE_FINISHED) break;
        enum game_outcome rc = game_play_resign(agp, s);
        if (game_outcome_failed(rc)) return JOBS_RETRY;
        if (rc != GAME_COMMITTED) continue; /* moved on meanwhile: the next claim looks again */
        char seat_s[12];
        snprintf(seat_s, sizeof seat_s, "%d", s);
        log_kv(LOG_INFO, "suspended player's seat resigned", "game", (*agp)->id, "seat", seat_s,
               NULL);
    }
    return JOBS_DROP;
}

/* jobs_kind.run of "suspension". Ends in JOBS_DROP, which removes the row only while it is
 * still the one claimed: a commit that gave the turn to another suspended seat rewrote it
 * (a new version), and it is claimed again. */
static enum jobs_result suspension_run(const struct store_job *j)
{
    enum games_fail why;
    struct api_game *ag = games_fetch(j->game, GAMES_DB, -1, &why);
    if (!ag) return why == GAMES_NOT_FOUND ? JOBS_DROP : JOBS_RETRY;
    enum jobs_result r = JOBS_DROP;
    unsigned mask = 0;
    if (ag->row.state != STORE_PLAYING || ag->g.phase == CC_PHASE_FINISHED) goto out;
    if (store_game_suspended_seats(ag->id, &mask) != STORE_OK) {
        r = JOBS_RETRY;
        goto out;
    }
    if (!ag->row.clock.kind) {
        r = resign_seats(&ag, mask);
    } else if (ag->g.seat < 32 && (mask & (1u << ag->g.seat))) {
        r = clocks_play_timeout(&ag);
        if (r == JOBS_DONE) r = JOBS_DROP;
    }
out:
    games_free(ag);
    return r;
}

/* The fast lane: what takes no thought. Its rows are written by the store (no plan). */
static const struct jobs_kind suspension_kind = {"suspension", NULL, suspension_run,
                                                 JOBS_LANE_FAST};

int suspension_init(void)
{
    return jobs_register(&suspension_kind);
}
