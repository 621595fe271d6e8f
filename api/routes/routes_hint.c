/* routes_hint.c: GET /v1/games/{id}/hint: the move the mcts computer player (or the one
 * ?level names) would make for the seat to move, thought on the task worker (jobs.h) while the
 * request waits suspended, so that no HTTP thread thinks.
 *
 * Bounded (issue 29, finding 2): a hint is pending from its request until it is thought;
 * at most HINT_QUEUE are pending on a server and HINT_PER_ADDRESS of them asked from one
 * address (more: 503 hints_busy with Retry-After); a repeat for the same seat and position
 * joins the pending one instead of queueing another. A hint whose every asker has gone
 * (the connection closed: api_async.gone, or the request ended) is dropped before it is
 * thought, or its search stopped. The task worker is a thread of its own, so that hints
 * never delay a deadline or a computer player's turn. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auth.h"
#include "bot.h"
#include "bots.h"
#include "game_answers.h"
#include "jobs.h"
#include "json_game.h"
#include "log.h"
#include "netaddr.h"
#include "params.h"
#include "problem.h"
#include "routes.h"

#define HINT_LEVEL        CC_BOT_MCTS /* the level a hint asks without ?level */
#define HINT_INLINE_MS    50          /* think_ms at most when no worker runs (thought inline) */
#define HINT_THINK_MAX_MS 10000       /* think_ms at most */
#define HINT_RETRY_AFTER  2           /* Retry-After (seconds) of 503 hints_busy */

struct hint;

/* A request waiting for a hint (its api_async.pending). */
struct hint_wait {
    struct hint *h;          /* the hint waited for; NULL once given up (the asker left) */
    struct api_async *async; /* the request's */
    int told;                /* 1 once the worker woke it with the answer */
    int waking;              /* 1 while the worker wakes it (the request lives until 0) */
    struct hint_wait *next;  /* the hint's list of waiters */
};

/* A hint: pending (queued or being thought) until done, then answered to its waiters. */
struct hint {
    struct jobs_task task;        /* first: the worker's view */
    char game[AUTH_UUID_LEN + 1]; /* the game, */
    int seat;                     /* the seat to move */
    int version;                  /* the version, */
    const char *level;            /* and the level (static): a repeat of all four joins it */
    char addr[NETADDR_KEY_MAX];   /* the first asker's address ("" when unknown) */
    struct cc_game g;             /* the position (the bot takes the seat's view) */
    uint64_t seed;                /* bots_seed() */
    int think_ms;                 /* the time to think */
    struct hint_wait *waiters;    /* the requests waiting for it */
    int refs;                     /* waiters pointing here + 1 for the worker until done */
    int done;                     /* 1: thought (st, move, used hold) */
    atomic_int stop;              /* 1: nobody waits: not thought, or its search stopped */
    enum cc_status st;            /* the bot's status */
    struct cc_action move;        /* its move */
    const char *used;             /* the level that chose it */
    struct hint *next;            /* the list of pending hints */
};

static pthread_mutex_t hlock = PTHREAD_MUTEX_INITIALIZER; /* guards hints and their waiters */
static pthread_cond_t hwoke = PTHREAD_COND_INITIALIZER;   /* a worker's wake is over */
static struct hint *pending;                              /* hints not yet thought */
static int npending;                                      /* entries in pending */
static int queue_max = 32;                                /* HINT_QUEUE */
static int per_address = 4;                               /* HINT_PER_ADDRESS */

void routes_hint_config(const struct cfg *cfg)
{
    queue_max = cfg->hint_queue > 0 ? cfg->hint_queue : 1;
    per_address = cfg->hint_per_address > 0 ? cfg->hint_per_address : 1;
}

/* Takes `h` off the pending list, if on it (hlock held). */
static void unlist(struct hint *h)
{
    for (struct hint **p = &pending; *p; p = &(*p)->next) {
        if (*p != h) continue;
        *p = h->next;
        h->next = NULL;
        npending--;
        return;
    }
}

/* Drops a reference to `h`, freeing it with the last (hlock held). */
static void unref(struct hint *h)
{
    if (--h->refs == 0) free(h);
}

/* Takes waiter `w` off its hint (hlock held, w->h set, w not being woken): when it was the
 * last waiter of a hint not yet thought, the hint is dropped from the queue and its search,
 * if it runs, stopped. */
static void detach(struct hint_wait *w)
{
    struct hint *h = w->h;
    for (struct hint_wait **p = &h->waiters; *p; p = &(*p)->next) {
        if (*p != w) continue;
        *p = w->next;
        break;
    }
    w->next = NULL;
    w->h = NULL;
    if (!h->done && !h->waiters) {
        atomic_store(&h->stop, 1);
        unlist(h);
    }
    unref(h);
}

/* jobs_task.run: thinks (unless nobody waits any more), then wakes every waiter. */
static void hint_run(struct jobs_task *t)
{
    struct hint *h = (struct hint *)t;
    struct cc_action move;
    memset(&move, 0, sizeof move);
    const char *used = NULL;
    enum cc_status st = CC_ERR_CORRUPT;
    if (!atomic_load(&h->stop))
        st = bots_think_stoppable(&h->g, h->level, h->think_ms, h->seed, &h->stop, &move, &used);
    pthread_mutex_lock(&hlock);
    unlist(h);
    h->st = st;
    h->move = move;
    h->used = used;
    h->done = 1;
    /* Wake each waiter once; the list may shrink meanwhile (a request ending waits only for
     * its own wake), so look again from its head after each. */
    for (;;) {
        struct hint_wait *w = h->waiters;
        while (w && w->told) w = w->next;
        if (!w) break;
        w->told = 1;
        w->waking = 1;
        pthread_mutex_unlock(&hlock);
        w->async->wake(w->async->wake_arg);
        pthread_mutex_lock(&hlock);
        w->waking = 0;
        pthread_cond_broadcast(&hwoke);
    }
    unref(h); /* the worker's */
    pthread_mutex_unlock(&hlock);
}

/* api_async.cancel: the request ended before it took its hint. */
static void hint_cancel(struct api_async *a)
{
    struct hint_wait *w = api_async_take(a);
    pthread_mutex_lock(&hlock);
    while (w->waking) pthread_cond_wait(&hwoke, &hlock);
    if (w->h) detach(w);
    pthread_mutex_unlock(&hlock);
    free(w);
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

/* 503 hints_busy with Retry-After: `detail` says which bound. */
static void busy(struct api_response *resp, const char *detail)
{
    problem_reply(resp, 503, "hints_busy", detail);
    resp->retry_after = HINT_RETRY_AFTER;
}

/* The rerun of a request whose hint is pending: its answer once thought, else wait on. A
 * request whose client has gone, or which the server stops, gives its hint up. */
static void hint_resume(const struct api_request *req, struct api_response *resp)
{
    struct api_async *a = req->async;
    struct hint_wait *w = a->pending;
    pthread_mutex_lock(&hlock);
    while (w->waking) pthread_cond_wait(&hwoke, &hlock); /* the worker's wake is short */
    struct hint *h = w->h;
    if (h && !h->done && !atomic_load(&a->gone) && !req->stopping) {
        pthread_mutex_unlock(&hlock);
        resp->suspend = API_SUSPEND_WAKE;
        return;
    }
    api_async_take(a);
    struct cc_game g;
    struct cc_action move;
    enum cc_status st = CC_ERR_CORRUPT;
    const char *used = NULL;
    int think_ms = 0, have = h && h->done;
    if (have) {
        memcpy(&g, &h->g, sizeof g);
        move = h->move;
        st = h->st;
        used = h->used;
        think_ms = h->think_ms;
    }
    if (h) detach(w);
    pthread_mutex_unlock(&hlock);
    free(w);
    if (have)
        answer(resp, &g, st, &move, used, think_ms);
    else
        busy(resp, "The hint was given up (the client left, or the server stops).");
}

/*
 * Queues the hint of seat `seat` of game `ag` (its position `g`) for request `req`, or joins
 * the pending hint of the same seat, version and level. Returns 1 (the request waits: suspend), 0
 * when no worker takes hints (think it inline), -1 when refused (answered 503 or 500).
 */
static int hint_queue(const struct api_request *req, struct api_response *resp,
                      const struct api_game *ag, int seat, int think_ms, const char *level)
{
    struct hint_wait *w = calloc(1, sizeof *w);
    if (!w) {
        problem_reply(resp, 500, "internal_error", "Out of memory.");
        return -1;
    }
    w->async = req->async;
    char addr[NETADDR_KEY_MAX];
    if (!netaddr_key(req->client_addr, addr, sizeof addr)) addr[0] = '\0';
    pthread_mutex_lock(&hlock);
    int mine = 0;
    for (struct hint *h = pending; h; h = h->next) {
        if (strcmp(h->game, ag->id) == 0 && h->seat == seat && h->version == ag->row.version &&
            h->level == level) {
            w->h = h; /* a repeat: it waits for the same hint */
            w->next = h->waiters;
            h->waiters = w;
            h->refs++;
            req->async->pending = w;
            req->async->cancel = hint_cancel;
            req->async->watch_client = 1;
            pthread_mutex_unlock(&hlock);
            return 1;
        }
        mine += addr[0] && strcmp(h->addr, addr) == 0;
    }
    const char *full = npending >= queue_max ? "Every hint slot of the server is taken; retry "
                                               "shortly."
                       : mine >= per_address ? "This address has as many hints pending as it may; "
                                               "retry when one is answered."
                                             : NULL;
    struct hint *h = full ? NULL : calloc(1, sizeof *h);
    if (!h) {
        pthread_mutex_unlock(&hlock);
        free(w);
        if (full)
            busy(resp, full);
        else
            problem_reply(resp, 500, "internal_error", "Out of memory.");
        return -1;
    }
    snprintf(h->game, sizeof h->game, "%s", ag->id);
    h->seat = seat;
    h->version = ag->row.version;
    h->level = level;
    snprintf(h->addr, sizeof h->addr, "%s", addr);
    memcpy(&h->g, &ag->g, sizeof h->g);
    h->seed = bots_seed(ag->id, &ag->g);
    h->think_ms = think_ms;
    h->task.run = hint_run;
    h->refs = 2; /* the waiter and the worker */
    h->waiters = w;
    w->h = h;
    h->next = pending;
    pending = h;
    npending++;
    req->async->pending = w;
    req->async->cancel = hint_cancel;
    req->async->watch_client = 1; /* gone: the hint is given up (hint_resume) */
    /* Under hlock: the worker may begin at once, and takes hlock only when it is done. */
    if (jobs_submit(&h->task) == 0) {
        pthread_mutex_unlock(&hlock);
        return 1;
    }
    api_async_take(req->async);
    unlist(h);
    pthread_mutex_unlock(&hlock);
    free(h);
    free(w);
    return 0;
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
    /* ?level: the computer player asked (its stable name, static: pointers compare). */
    const char *lq = api_query_get(req, "level");
    enum cc_bot_level lv = HINT_LEVEL;
    if (lq && !cc_bot_level_parse(lq, &lv)) {
        problem_reply(resp, 400, "unknown_bot_level",
                      "level must be \"random\", \"greedy\", \"mcts\" or \"hard\".");
        return;
    }
    const char *level = cc_bot_level_name(lv);
    struct api_game *ag = games_load(id, GAMES_CURRENT, resp);
    if (!ag) return;
    int seat = games_seat(req, ag, resp);
    if (seat < 0) goto out;
    const struct cc_game *g = &ag->g;
    if (ag->row.hints_off) {
        problem_reply(resp, 403, "hints_disabled",
                      ag->row.rated ? "This game is rated: a rated game has no hints."
                                    : "This game was created with \"hints\": false.");
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
    if (req->async && !req->stopping) {
        int queued = hint_queue(req, resp, ag, seat, (int)think, level);
        if (queued > 0) resp->suspend = API_SUSPEND_WAKE;
        if (queued != 0) goto out;
    }
    /* No worker to think (BOT_WORKERS=0) or no way to wait: thought here, briefly. */
    struct cc_action move;
    const char *used = NULL;
    int inline_ms = think > HINT_INLINE_MS ? HINT_INLINE_MS : (int)think;
    enum cc_status st = bots_play_turn(g, level, inline_ms, bots_seed(ag->id, g), &move, &used);
    answer(resp, g, st, &move, used, inline_ms);
out:
    games_free(ag);
}
