/* bots.c: computer players' seats: the job kinds "bot" and "bot_think" that play their
 * turns, and the one place that asks the engine for a computer player's move
 * (bots_play_turn). */
#include "bots.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot.h"
#include "game/service.h"
#include "games.h"
#include "idle_run.h"
#include "jobs.h"
#include "log.h"
#include "req.h"
#include "think_clock.h"
#include "store_games.h"
#include "store_jobs.h"

#define LEASE_EXTRA_MS 2000 /* a claim of a bot's turn holds it 2 x think_ms + this */

static pthread_key_t scratch_key;                       /* the thread's search memory */
static pthread_once_t scratch_once = PTHREAD_ONCE_INIT; /* creates scratch_key */
static int scratch_key_ok;                              /* 1 once scratch_key exists */

static void scratch_key_make(void)
{
    scratch_key_ok = pthread_key_create(&scratch_key, free) == 0;
}

/* The calling thread's search memory (about 360 KB), allocated and touched once and kept
 * until the thread ends (NULL when out of memory). Why not one per move: allocating and
 * freeing that much maps and unmaps memory and faults pages in, each under the process's
 * memory-map lock, which the search at idle priority should never be preempted holding. */
static struct cc_bot_scratch *thread_scratch(void)
{
    pthread_once(&scratch_once, scratch_key_make);
    if (!scratch_key_ok) return NULL;
    struct cc_bot_scratch *s = pthread_getspecific(scratch_key);
    if (s) return s;
    if (!(s = malloc(sizeof *s))) return NULL;
    memset(s, 0, sizeof *s); /* touched here, so the search at idle priority takes no fault */
    if (pthread_setspecific(scratch_key, s) != 0) {
        free(s);
        return NULL;
    }
    return s;
}

/* One call of the engine's search, as idle_run() runs it. */
struct bot_think {
    const struct cc_game *g;            /* the game as the seat to move sees it */
    enum cc_bot_level lv;               /* the level */
    uint64_t seed;                      /* bots_seed() */
    const struct cc_bot_budget *budget; /* the time or iterations */
    struct cc_bot_scratch *scratch;     /* the search's memory */
    struct cc_action *out;              /* the move */
    enum cc_status st;                  /* cc_bot_think's answer */
};

static void bot_think_run(void *arg)
{
    struct bot_think *t = arg;
    t->st = cc_bot_think(t->g, t->lv, t->seed, t->budget, t->scratch, t->out);
}

/* The clock of a search that may be stopped (bots_think_stoppable). */
struct stoppable {
    struct think_clock *clock; /* the search's clock */
    const atomic_int *stop;    /* 1: the search is over */
    int started;               /* 1 once the engine read its start time */
};

/* cc_bot_budget.now_us of a stoppable search: think_clock_now(), or far past any budget
 * once stopped (the engine then ends the search at its next look at the clock). The first
 * reading, the search's start, is always the true time. */
static uint64_t stoppable_now(void *ctx)
{
    struct stoppable *s = ctx;
    uint64_t now = think_clock_now(s->clock);
    if (!s->started) {
        s->started = 1;
        return now;
    }
    return atomic_load(s->stop) ? now + ((uint64_t)1 << 40) : now;
}

enum cc_status bots_play_turn(const struct cc_game *g, const char *level, int think_ms,
                              uint64_t seed, struct cc_action *out, const char **used)
{
    return bots_think_stoppable(g, level, think_ms, seed, NULL, out, used);
}

enum cc_status bots_think_stoppable(const struct cc_game *g, const char *level, int think_ms,
                                    uint64_t seed, const atomic_int *stop, struct cc_action *out,
                                    const char **used)
{
    enum cc_bot_level lv;
    *used = NULL;
    if (!cc_bot_level_parse(level, &lv)) return CC_ERR_BAD_OPTION;
    /* Random and greedy answer at once; mcts and hard think for think_ms of wall time (the
     * engine reads the clock every few iterations, so they stop within a fraction of a ms). */
    bool searches = lv == CC_BOT_MCTS || lv == CC_BOT_HARD;
    struct think_clock clock = {.load_fd = -1}; /* opened for mcts and hard only */
    struct stoppable stoppable = {&clock, stop, 0};
    struct cc_bot_budget budget = {.think_us = think_ms > 0 ? (uint32_t)think_ms * 1000u : 0,
                                   .now_us = stop ? stoppable_now : think_clock_now,
                                   .now_ctx = stop ? (void *)&stoppable : (void *)&clock};
    if (!budget.think_us)
        budget.iterations =
            lv == CC_BOT_HARD ? CC_BOT_HARD_DEFAULT_ITERATIONS : CC_BOT_MCTS_DEFAULT_ITERATIONS;
    struct cc_bot_scratch *scratch = thread_scratch();
    if (!scratch) return CC_ERR_CORRUPT;
    struct bot_think t = {g, lv, seed, &budget, scratch, out, CC_ERR_CORRUPT};
    if (!searches) {
        bot_think_run(&t);
    } else {
        /* The search takes all the CPU it is given for think_ms: at idle priority, and
         * pausing unless a CPU is left free beside its own (think_clock.h), it takes only
         * what requests and other games' turns leave (issue 13: they stay as fast while
         * computer players think). */
        think_clock_open(&clock);
        if (!idle_run(bot_think_run, &t)) log_kv(LOG_DEBUG, "bot thinks at normal priority", NULL);
        think_clock_close(&clock);
        if (clock.pauses) {
            char n[16], ms[24];
            snprintf(n, sizeof n, "%u", clock.pauses);
            snprintf(ms, sizeof ms, "%llu", (unsigned long long)(clock.paused_us / 1000u));
            log_kv(LOG_DEBUG, "bot search paused for busy CPUs", "pauses", n, "paused_ms", ms,
                   NULL);
        }
    }
    if (t.st == CC_OK) *used = cc_bot_level_name(lv);
    return t.st;
}

uint64_t bots_seed(const char *id, const struct cc_game *g)
{
    uint64_t h = 14695981039346656037ull; /* FNV-1a 64 of the id */
    for (const unsigned char *p = (const unsigned char *)id; *p; p++)
        h = (h ^ *p) * 1099511628211ull;
    h ^= ((uint64_t)g->turn << 1 | (g->phase == CC_PHASE_PLACE)) * 0x9E3779B97F4A7C15ull;
    return h;
}

void bots_seats_new(const struct json_new_game *in, int nplayers, struct store_player *players,
                    char (*token_text)[AUTH_TOKEN_LEN + 1], const char **tokens)
{
    for (int s = 0; s < nplayers; s++) {
        if (!in->bots[s][0]) continue;
        snprintf(players[s].bot, sizeof players[s].bot, "%s", in->bots[s]);
        players[s].think_ms = in->think_ms[s];
        /* The token hashed into the seat is thrown away unseen (as for a "me" seat). */
        memset(token_text[s], 0, sizeof token_text[s]);
        tokens[s] = NULL;
    }
}

/*
 * 1 when the people have left game `g` with seats `seats`: it had at least one person's seat
 * and every one of them has resigned (by itself, or by the clock: the third timeout in a
 * row). Its computer players then only resign, each at its turn, so that no game of
 * computer players plays on for nobody (issue 29, finding 4). A game created without a
 * person's seat plays to its end, as asked.
 */
static int people_left(const struct cc_game *g, const struct store_player *seats)
{
    int people = 0;
    for (unsigned s = 0; s < g->nplayers; s++) {
        if (seats[s].bot[0]) continue;
        if (!cc_seat_resigned(g, s)) return 0;
        people++;
    }
    return people > 0;
}

/* 1 when the next action of the seat to move of `g`, a computer player, takes thought (an
 * mcts or hard placement): a job of the slow lane, "bot_think"; every other (a draw, random
 * and greedy, a resignation) is one of the fast lane, "bot". */
static int takes_thought(const struct cc_game *g, const struct store_player *seats)
{
    const char *bot = seats[g->seat].bot;
    return g->phase == CC_PHASE_PLACE && (strcmp(bot, "mcts") == 0 || strcmp(bot, "hard") == 0) &&
           !people_left(g, seats);
}

/* What kind `think` (1: "bot_think", 0: "bot") plans for `g`: a computer player's turn is due
 * at once when the seat to move is one and its action is of that kind; in a game with
 * computer players, no job of the kind otherwise. */
static enum jobs_plan plan_of(int think, const struct cc_game *g, const struct store_player *seats,
                              int *due_ms, int *lease_ms)
{
    int any = 0;
    for (unsigned s = 0; s < g->nplayers; s++) any |= seats[s].bot[0] != '\0';
    if (!any) return JOBS_PLAN_NONE;
    if (g->phase == CC_PHASE_FINISHED || g->seat >= g->nplayers || !seats[g->seat].bot[0] ||
        takes_thought(g, seats) != think)
        return JOBS_PLAN_REMOVE;
    *due_ms = 0;
    *lease_ms = 2 * seats[g->seat].think_ms + LEASE_EXTRA_MS;
    return JOBS_PLAN_DUE;
}

/* jobs_kind.plan of "bot": the computer player's actions that take no thought. */
static enum jobs_plan bot_plan(const struct cc_game *g, const struct store_player *seats,
                               int *due_ms, int *lease_ms)
{
    return plan_of(0, g, seats, due_ms, lease_ms);
}

/* jobs_kind.plan of "bot_think": its mcts and hard placements. */
static enum jobs_plan think_plan(const struct cc_game *g, const struct store_player *seats,
                                 int *due_ms, int *lease_ms)
{
    return plan_of(1, g, seats, due_ms, lease_ms);
}

/* jobs_kind.run: one action (the draw, or the placement) of the computer player to move,
 * played through the game service like a request's, whose commit rewrites the job for what comes
 * next. */
static enum jobs_result bot_run(const struct store_job *j)
{
    enum jobs_result r = JOBS_RETRY;
    enum games_fail why;
    struct api_game *ag = games_fetch(j->game, GAMES_DB, -1, &why);
    if (!ag) return why == GAMES_NOT_FOUND ? JOBS_DROP : JOBS_RETRY;
    /* A row older than the game: a commit without the plan wrote the game (none should). */
    if (ag->row.version != j->version) {
        r = JOBS_DROP;
        goto out;
    }
    const struct cc_game *g = &ag->g;
    /* Nothing to play in a game that is over, aborted or still waiting for open seats. */
    if (g->phase == CC_PHASE_FINISHED || g->seat >= g->nplayers ||
        !ag->row.players[g->seat].bot[0] || ag->row.state != STORE_PLAYING) {
        r = JOBS_DROP;
        goto out;
    }
    const struct store_player *p = &ag->row.players[g->seat];
    struct game_play play = {.by = GAME_BY_BOT};
    const char *used = NULL;
    long long t0 = api_now_ms();
    enum cc_status st = CC_OK;
    if (people_left(g, ag->row.players)) { /* nobody left to play for: it resigns */
        play.action.kind = CC_ACTION_RESIGN;
        play.action.tile = CC_NO_TILE;
        used = "resign";
    } else {
        st = bots_play_turn(g, p->bot, p->think_ms, bots_seed(ag->id, g), &play.action, &used);
    }
    if (st != CC_OK) {
        log_kv(LOG_ERROR, "computer player found no move", "game", ag->id, "status",
               cc_status_name(st), NULL);
        goto out;
    }
    long long t1 = api_now_ms();
    play.action.seat = (uint8_t)g->seat;
    play.place = play.action.kind != CC_ACTION_DRAW;
    struct game_result res;
    enum game_outcome rc = game_play(&ag, &play, &res);
    if (rc == GAME_COMMITTED) {
        char ms[24];
        snprintf(ms, sizeof ms, "%lld", t1 - t0);
        log_kv(LOG_DEBUG, "computer player moved", "game", ag->id, "level", used, "think_ms", ms,
               NULL);
        r = JOBS_DONE;
    } else if (game_outcome_moved_on(rc)) {
        /* Another attempt moved first: its commit rewrote the job. */
        if (rc == GAME_REFUSED)
            log_kv(LOG_ERROR, "computer player's move refused", "game", j->game, "status",
                   cc_status_name(res.refusal), NULL);
        r = JOBS_DONE;
    } else {
        log_kv(game_outcome_failed(rc) ? LOG_WARN : LOG_ERROR, "computer player's move not stored",
               "game", j->game, "outcome", game_outcome_name(rc), NULL);
    }
    game_result_free(&res);
out:
    games_free(ag);
    return r;
}

/* Both kinds play whatever the seat to move needs (a row of either, written before a state
 * changed its kind, still plays its turn); they differ in the lane that claims them. */
static const struct jobs_kind bot_kind = {"bot", bot_plan, bot_run, JOBS_LANE_FAST};
static const struct jobs_kind think_kind = {"bot_think", think_plan, bot_run, JOBS_LANE_SLOW};

int bots_init(void)
{
    return jobs_register(&bot_kind) || jobs_register(&think_kind) ? -1 : 0;
}
