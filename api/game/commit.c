/* commit.c: the game service's one commit of a new state, and the one place where a game
 * ends -- see service.h. */
#include <stdlib.h>
#include <string.h>

#include "batcher.h"
#include "clocks.h"
#include "game/service.h"
#include "job_kinds.h"
#include "json_game.h"
#include "log.h"
#include "store_games.h"
#include "store_ratings.h"

void game_end(struct api_game *ag, struct store_commit *c, enum game_ending how)
{
    c->result = game_end_result(&ag->g, how);
    /* An abort or an expiry: the row's state follows once committed (game_commit). */
    c->status = how == GAME_ENDS_ABORTED || how == GAME_ENDS_EXPIRED ? "aborted" : "finished";
}

/*
 * The seats of rated game `ag` that the commit of `c` ends into *rg, for the ratings'
 * update in the commit's transaction: 1 when the commit finishes a rated game (a result:
 * completed, resignation, timeout; an abort or an expiry has none and is unrated), else 0.
 * A seat that resigned or timed out gets out_at 1 here; the store puts in when it left
 * (its resignation's version, from the actions stored).
 */
static int rated_end(const struct api_game *ag, const struct store_commit *c,
                     struct ratings_game *rg)
{
    if (!ag->row.rated || !c->result || !c->status || strcmp(c->status, "finished") != 0) return 0;
    const struct cc_game *g = &ag->g;
    if (g->nplayers < 2 || g->nplayers > RATINGS_MAX_SEATS) return 0;
    memset(rg, 0, sizeof *rg);
    rg->game_id = ag->id;
    rg->pool = cc_ruleset_name((enum cc_ruleset)g->ruleset);
    rg->nseats = g->nplayers;
    for (int s = 0; s < g->nplayers; s++) {
        const struct store_player *p = &ag->row.players[s];
        struct ratings_game_seat *r = &rg->seats[s];
        r->person_id = p->person_id[0] ? p->person_id : NULL;
        r->bot = p->person_id[0] || !p->bot[0] ? NULL : p->bot;
        r->think_ms = p->think_ms;
        r->score = g->players[s].score;
        r->out_at = cc_seat_resigned(g, (unsigned)s) ? 1 : 0;
    }
    return 1;
}

enum game_outcome game_commit(struct api_game *ag, struct store_commit *c, enum game_actor by,
                              const char *body, size_t len, enum store_status *failure)
{
    c->id = ag->id;
    c->version = ag->row.version;
    /* The game's background jobs after this state (a computer player's turn ...), written
     * by the same transaction (jobs.h). */
    struct store_jobs plan = {0};
    const struct store_jobs *given = c->jobs;
    if (given)
        plan = *given;
    else
        jobs_plan(&ag->g, ag->row.players, &plan);
    if (!c->turn.phase) games_turn(&ag->g, &c->turn);
    /* A game with a clock (0011): the clock moved on, its deadline and jobs. */
    char clock[STORE_CLOCK_JSON_MAX], deadline[32];
    struct store_clock was = ag->row.clock;
    if (ag->row.clock.kind)
        clocks_commit(&ag->row.clock, &ag->g, c, by == GAME_BY_CLOCK, clock, deadline, &plan);
    c->jobs = plan.n ? &plan : NULL;
    c->epoch = ag->epoch;
    /* A rated game that ends: its seats' ratings in the same transaction (0025). */
    struct ratings_game rg;
    struct ratings_change changes[RATINGS_MAX_SEATS];
    int rated = !c->rate && rated_end(ag, c, &rg);
    if (rated) {
        c->rate = &rg;
        c->rated = changes;
    }
    enum store_status s = store_game_commit(c);
    if (rated) {
        if (s == STORE_OK)
            log_kv(LOG_INFO, changes[0].rated ? "game rated" : "rated game left unrated", "game",
                   ag->id, (const char *)NULL);
        c->rate = NULL; /* (rg and changes are this call's) */
        c->rated = NULL;
    }
    c->jobs = given; /* (plan is this call's) */
    if (s == STORE_OK) {
        if (rated && changes[0].rated) {
            /* The state of the rated game that ended shows the ratings it left (a body made
             * before the commit would show those before: the state is made again). */
            long long now = clocks_now_ms();
            for (int i = 0; i < rg.nseats; i++)
                ag->row.players[i].rating = (struct store_seat_rating){
                    .known = 1,
                    .rating = changes[i].after,
                    .games = changes[i].games,
                    .last_rated_ms = now,
                    .read_ms = now,
                };
            body = NULL;
            len = 0;
        }
    } else {
        ag->row.clock = was;
    }
    return game_commit_done(ag, c, s, body, len, failure);
}

enum game_outcome game_commit_done(struct api_game *ag, const struct store_commit *c,
                                   enum store_status s, const char *body, size_t len,
                                   enum store_status *failure)
{
    *failure = s;
    if (s == STORE_OK) {
        ag->row.version = c->version + 1;
        ag->row.last_seq = c->last_seq;
        if (c->status && strcmp(c->status, "aborted") == 0) ag->row.state = STORE_ABORTED;
        games_remember(ag, body, len);
        return GAME_COMMITTED;
    }
    switch (s) {
    case STORE_CONFLICT:
        return GAME_CONFLICT;
    case STORE_DUPLICATE:
        return GAME_DUPLICATE;
    default:
        return GAME_STORE_FAILED;
    }
}

enum game_outcome game_commit_queue(struct api_game *ag, struct store_commit *c, enum game_actor by,
                                    struct api_async *a, struct batch_req **queued,
                                    const char *body, size_t len, enum store_status *failure)
{
    *queued = NULL;
    /* A seat's move that writes nothing but the game: what the batch's statement can write
     * (store_commit_batchable), no clock (its jobs), no computer player's job, no rated end
     * (several statements). */
    struct store_jobs plan = {0};
    struct ratings_game rg;
    if (by == GAME_BY_SEAT && a && !ag->row.clock.kind && store_commit_batchable(c) &&
        batcher_commits_running()) {
        jobs_plan(&ag->g, ag->row.players, &plan);
        if (!plan.n && !rated_end(ag, c, &rg)) {
            c->id = ag->id;
            c->version = ag->row.version;
            if (!c->turn.phase) games_turn(&ag->g, &c->turn);
            c->epoch = ag->epoch;
            struct store_row *row = store_commit_row(c);
            if (row && (*queued = batcher_commit_async(c->id, row, c->epoch, a)) != NULL) {
                *failure = STORE_OK;
                return GAME_PENDING;
            }
        }
    }
    return game_commit(ag, c, by, body, len, failure);
}

enum game_outcome game_commit_change(struct api_game *ag, const struct game_change *ch,
                                     enum game_actor by, enum store_status *failure)
{
    *failure = STORE_ERROR;
    uint8_t *snap = malloc(CC_SNAPSHOT_MAX);
    if (!snap) return GAME_NO_MEMORY;
    size_t len = cc_game_encode(&ag->g, snap, CC_SNAPSHOT_MAX);
    if (!len) {
        free(snap);
        return GAME_CORRUPT;
    }
    struct store_commit c = {
        .status = json_status(&ag->g),
        .last_seq = ag->row.last_seq + ch->nev,
        .snapshot = snap,
        .snapshot_len = len,
        .seat = ch->seat,
        .kind = ch->kind,
        .action_json = ch->action_json,
        .events_json = ch->events_json,
        .idem = ch->idem,
        .jobs = ch->jobs,
    };
    if (ch->ends) game_end(ag, &c, *ch->ends);
    enum game_outcome rc = game_commit(ag, &c, by, NULL, 0, failure);
    free(snap);
    return rc;
}
