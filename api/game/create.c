/* create.c: the game service's creation of a game (a new one, a rematch, a replay; next the
 * matchmaker's and tournaments') -- see service.h. */
#include <stdlib.h>
#include <string.h>

#include "auth.h"
#include "clocks.h"
#include "game/service.h"
#include "job_kinds.h"
#include "json_game.h"
#include "store_games.h"

enum game_outcome game_create_begin(struct game_new *n)
{
    const struct cc_game *g = n->g;
    if (n->creator && (n->retry_after = game_limit_take(n->creator, n->weight)) > 0)
        return GAME_RATE_LIMITED;
    if (auth_uuid_new(n->id)) return GAME_NO_MEMORY;
    n->snapshot = malloc(CC_SNAPSHOT_MAX);
    if (!n->snapshot) return GAME_NO_MEMORY;
    n->snapshot_len = cc_game_encode(g, n->snapshot, CC_SNAPSHOT_MAX);
    if (!n->snapshot_len) return GAME_CORRUPT;
    struct json_out w;
    json_out_init(&w);
    json_options(&w, g);
    n->options_json = json_out_take(&w, NULL);
    if (n->setup->deck_len >= 0) {
        json_out_begin_array(&w);
        for (int i = 0; i < n->setup->deck_len; i++) json_tile(&w, g, n->setup->deck[i]);
        json_out_end_array(&w);
        n->deck_json = json_out_take(&w, NULL);
    }
    json_out_free(&w);
    if (!n->options_json || (n->setup->deck_len >= 0 && !n->deck_json)) return GAME_NO_MEMORY;
    /* The clock (0011): the first turn begins now, or with open seats when the last of
     * them is taken (routes_lobby.c): a waiting game has no deadline. */
    n->now_ms = clocks_now_ms();
    if (n->clock.kind && !n->open_seats) clocks_begin(&n->clock, g, n->now_ms);
    return GAME_COMMITTED;
}

/* A new game's row for the store and what it points to (besides the game_new's). */
struct new_row {
    char clock_txt[STORE_CLOCK_JSON_MAX];
    char deadline[32];
    struct game_start st;
    struct store_new_game ng;
};

/* The row of new game `n` (game_create_begin'd) with `idem` into *r. */
static void new_row(const struct game_new *n, const struct store_idem *idem, struct new_row *r)
{
    const struct cc_game *g = n->g;
    int finished = g->phase == CC_PHASE_FINISHED;
    r->deadline[0] = '\0';
    r->st = (struct game_start){.clock_json = r->clock_txt, .deadline = r->deadline};
    /* No jobs while seats are open (the last join plans them), nor in a game created over
     * (a replay). */
    const struct store_jobs *plan =
        game_start(g, n->players, &n->clock, n->now_ms, !n->open_seats && !finished, &r->st);
    r->ng = (struct store_new_game){
        .id = n->id,
        .ruleset = cc_ruleset_name((enum cc_ruleset)g->ruleset),
        .options_json = n->options_json,
        .seed = g->seed,
        .start = n->start,
        .deck_json = n->deck_json,
        .status = n->open_seats ? "waiting" : json_status(g),
        .last_seq = n->last_seq,
        .snapshot = n->snapshot,
        .snapshot_len = n->snapshot_len,
        .nplayers = g->nplayers,
        .players = n->players,
        .events_json = n->events_json,
        .idem = idem,
        .webhook_url = n->webhook_url,
        .webhook_secret = n->webhook_secret,
        .webhook_format = n->webhook_format,
        .result = finished ? game_end_result(g, GAME_ENDS_PLAYED) : NULL,
        .rematch_of = n->rematch_of,
        .hints_off = n->hints_off,
        .seed_chosen = n->seed_chosen,
        .rated = n->rated,
        .chat_public = n->chat_public,
        .listed = n->listed,
        .owner = n->owner,
        .jobs = plan,
        .clock_json = r->st.clock_json,
        .deadline = r->st.deadline,
        .replay_json = n->replay_json,
        .replay_version = n->replay_json ? n->version : 0,
        .nseeks = n->nseeks,
        .seek_ids = n->seek_ids,
        .seek_seats = n->seek_seats,
        .tourney_id = n->tourney_id,
        .tourney_round = n->tourney_round,
        .tourney_table = n->tourney_table,
    };
    games_turn(g, &r->ng.turn); /* for the players' lists (0012) */
}

/* The outcome of storing new games bound (`bound`: seeks, a tournament's table) or not. */
static enum game_outcome stored(enum store_status s, int bound)
{
    switch (s) {
    case STORE_OK:
        return GAME_COMMITTED;
    case STORE_DUPLICATE:
        return GAME_DUPLICATE;
    case STORE_CONFLICT:
        return bound ? GAME_SEEKS_TAKEN : GAME_STORE_FAILED;
    default:
        return GAME_STORE_FAILED;
    }
}

enum game_outcome game_create(struct game_new *n, const struct store_idem *idem,
                              enum store_status *failure)
{
    struct new_row r;
    new_row(n, idem, &r);
    *failure = store_game_create(&r.ng);
    return stored(*failure, n->nseeks || n->tourney_id);
}

enum game_outcome game_create_many(struct game_new *const *ns, int count,
                                   enum store_status *failure)
{
    struct new_row *rows = calloc((size_t)count + 1, sizeof *rows);
    const struct store_new_game **ngs = calloc((size_t)count + 1, sizeof *ngs);
    int bound = 0;
    *failure = STORE_ERROR;
    if (!rows || !ngs) {
        free(rows);
        free(ngs);
        return GAME_NO_MEMORY;
    }
    for (int i = 0; i < count; i++) {
        new_row(ns[i], NULL, &rows[i]);
        ngs[i] = &rows[i].ng;
        bound |= ns[i]->nseeks || ns[i]->tourney_id;
    }
    *failure = store_games_create(ngs, count);
    free(ngs);
    free(rows);
    return stored(*failure, bound);
}

const struct store_jobs *game_start(const struct cc_game *g, const struct store_player *players,
                                    const struct store_clock *clock, long long now_ms, int plan,
                                    struct game_start *out)
{
    if (clock->kind) {
        store_clock_encode(clock, out->clock_json, STORE_CLOCK_JSON_MAX);
        if (clock->deadline_ms)
            clocks_rfc3339(clock->deadline_ms, out->deadline);
        else
            out->deadline = NULL;
    } else {
        out->clock_json = out->deadline = NULL;
    }
    out->jobs.n = 0;
    if (!plan) return NULL;
    /* A computer player at seat 0 moves at once (jobs.h); a clock's deadline. */
    jobs_plan(g, players, &out->jobs);
    if (clock->kind) clocks_jobs(clock, g, 1, now_ms, &out->jobs);
    return out->jobs.n ? &out->jobs : NULL;
}

void game_new_free(struct game_new *n)
{
    free(n->snapshot);
    free(n->options_json);
    free(n->deck_json);
    n->snapshot = NULL;
    n->options_json = n->deck_json = NULL;
}
