/* routes_hint.c: GET /v1/games/{id}/hint: the move the mcts computer player would make for
 * the seat to move, thought on a job worker (jobs.h) while the request waits suspended, so
 * that no HTTP thread thinks. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bots.h"
#include "games.h"
#include "jobs.h"
#include "json_game.h"
#include "log.h"
#include "params.h"
#include "problem.h"
#include "routes.h"

#define HINT_LEVEL        "mcts" /* the level a hint asks */
#define HINT_INLINE_MS    50     /* think_ms at most when no worker runs (thought inline) */
#define HINT_THINK_MAX_MS 10000  /* think_ms at most */

/* A hint being thought: queued for a worker, then answered to the request that waits. */
struct hint {
    struct jobs_task task;   /* first: the worker's view */
    struct api_async *async; /* the waiting request's (until cancelled) */
    struct cc_game g;        /* the position (the seat to move's view is taken by the bot) */
    uint64_t seed;           /* bots_seed() */
    int think_ms;            /* the time to think */
    int done;                /* 1: thought (st, move, used hold) */
    int cancelled;           /* 1: the request ended first: the worker frees it */
    int waking;              /* 1: the worker is waking the request */
    enum cc_status st;       /* the bot's status */
    struct cc_action move;   /* its move */
    const char *used;        /* the level that chose it */
};

static pthread_mutex_t hlock = PTHREAD_MUTEX_INITIALIZER; /* guards the flags of every hint */
static pthread_cond_t hwoke = PTHREAD_COND_INITIALIZER;   /* a worker's wake is over */

/* jobs_task.run: thinks, then wakes the request (unless it went away). */
static void hint_run(struct jobs_task *t)
{
    struct hint *h = (struct hint *)t;
    struct cc_action move;
    const char *used = NULL;
    enum cc_status st = bots_play_turn(&h->g, HINT_LEVEL, h->think_ms, h->seed, &move, &used);
    pthread_mutex_lock(&hlock);
    if (h->cancelled) {
        pthread_mutex_unlock(&hlock);
        free(h);
        return;
    }
    h->st = st;
    h->move = move;
    h->used = used;
    h->done = 1;
    h->waking = 1; /* the request, and so h->async, lives until this is 0 */
    pthread_mutex_unlock(&hlock);
    h->async->wake(h->async->wake_arg);
    pthread_mutex_lock(&hlock);
    h->waking = 0;
    pthread_cond_broadcast(&hwoke);
    pthread_mutex_unlock(&hlock);
}

/* api_async.cancel: the request ended before it took its hint. */
static void hint_cancel(struct api_async *a)
{
    struct hint *h = a->pending;
    a->pending = NULL;
    a->cancel = NULL;
    pthread_mutex_lock(&hlock);
    if (!h->done) {
        h->cancelled = 1; /* queued or thinking: the worker frees it */
        h = NULL;
    } else {
        while (h->waking) pthread_cond_wait(&hwoke, &hlock);
    }
    pthread_mutex_unlock(&hlock);
    free(h);
}

/* Answers 200 {"placement": <POST /placements body>, "level", "think_ms"} for move `m`. */
static void answer(struct api_response *resp, const struct cc_game *g, enum cc_status st,
                   const struct cc_action *m, const char *used, int think_ms)
{
    if (st != CC_OK) {
        problem_engine(resp, st);
        return;
    }
    struct json_out w;
    json_out_init(&w);
    json_out_begin_object(&w);
    json_out_key(&w, "placement");
    json_placement_body(&w, g, m);
    json_out_kstring(&w, "level", used);
    json_out_kint(&w, "think_ms", think_ms);
    json_out_end_object(&w);
    api_reply_out(resp, 200, &w);
}

/* The rerun of a request whose hint was queued: its answer once thought, else wait on. */
static void hint_resume(const struct api_request *req, struct api_response *resp)
{
    struct api_async *a = req->async;
    struct hint *h = a->pending;
    pthread_mutex_lock(&hlock);
    int done = h->done;
    if (done) {
        a->pending = NULL;
        a->cancel = NULL;
        while (h->waking) pthread_cond_wait(&hwoke, &hlock); /* the worker's wake is short */
    }
    pthread_mutex_unlock(&hlock);
    if (!done) {
        resp->suspend = API_SUSPEND_WAKE;
        return;
    }
    answer(resp, &h->g, h->st, &h->move, h->used, h->think_ms);
    free(h);
}

void routes_hint(const struct api_request *req, struct api_response *resp, const char *id)
{
    if (req->async && req->async->pending) {
        hint_resume(req, resp);
        return;
    }
    long think = 250;
    const char *q = api_query_get(req, "think_ms");
    if (q && (params_uint(q, HINT_THINK_MAX_MS, &think) || think < 10)) {
        problem_reply(resp, 400, "invalid_think_ms",
                      "think_ms must be an integer from 10 to 10000.");
        return;
    }
    struct api_game *ag = games_load(id, GAMES_CURRENT, resp);
    if (!ag) return;
    int seat = games_seat(req, ag, resp);
    if (seat < 0) goto out;
    const struct cc_game *g = &ag->g;
    if (ag->row.hints_off) {
        problem_reply(resp, 403, "hints_disabled", "This game was created with \"hints\": false.");
        goto out;
    }
    if (g->phase == CC_PHASE_FINISHED) {
        problem_engine(resp, CC_ERR_GAME_FINISHED);
        goto out;
    }
    if (seat != g->seat) {
        problem_engine(resp, CC_ERR_NOT_YOUR_TURN);
        goto out;
    }
    if (g->phase != CC_PHASE_PLACE) {
        problem_engine(resp, CC_ERR_WRONG_PHASE);
        goto out;
    }
    uint64_t seed = bots_seed(ag->id, g);
    struct hint *h = calloc(1, sizeof *h);
    if (!h) {
        problem_reply(resp, 500, "internal_error", "Out of memory.");
        goto out;
    }
    memcpy(&h->g, g, sizeof h->g);
    h->seed = seed;
    h->think_ms = (int)think;
    h->task.run = hint_run;
    if (req->async && !req->stopping) {
        h->async = req->async;
        req->async->pending = h;
        req->async->cancel = hint_cancel;
        if (jobs_submit(&h->task) == 0) {
            resp->suspend = API_SUSPEND_WAKE;
            goto out;
        }
        req->async->pending = NULL;
        req->async->cancel = NULL;
    }
    /* No worker to think (BOT_WORKERS=0) or no way to wait: thought here, briefly. */
    if (h->think_ms > HINT_INLINE_MS) h->think_ms = HINT_INLINE_MS;
    h->st = bots_play_turn(&h->g, HINT_LEVEL, h->think_ms, h->seed, &h->move, &h->used);
    answer(resp, &h->g, h->st, &h->move, h->used, h->think_ms);
    free(h);
out:
    games_free(ag);
}
