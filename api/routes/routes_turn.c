/* routes_turn.c: the actions of a turn (draw, place) and the legal placements. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/service.h"
#include "game_answers.h"
#include "idem.h"
#include "json_game.h"
#include "json_in.h"
#include "log.h"
#include "problem.h"
#include "routes.h"
#include "store.h"
#include "store_games.h"

/* What a request's hooks of game_play() need: its If-Match and Idempotency-Key. */
struct act_ctx {
    const struct api_request *req; /* the request */
    struct api_response refused;   /* the precondition's last refusal (412, 400) */
    struct api_response answer;    /* the answer as remembered under the key: status, ETag */
    struct idem *idem;             /* the request's Idempotency-Key state */
};

/* game_play.precondition: the request's If-Match against the version. */
static int act_precondition(void *ctx, int version)
{
    struct act_ctx *x = ctx;
    free(x->refused.body);
    memset(&x->refused, 0, sizeof x->refused);
    return idem_if_match(x->req, version, &x->refused);
}

/* game_play.answered: the answer remembered under the request's key, in the commit. */
static const struct store_idem *act_answered(void *ctx, const char *answer, size_t len, int version)
{
    struct act_ctx *x = ctx;
    (void)len;
    if (!x->idem->active) return NULL;
    games_etag(&x->answer, version);
    idem_remember(x->idem, x->req, &x->answer, answer);
    return &x->idem->rec;
}

/* The kinds of action act() runs. */
enum act_kind { ACT_DRAW = 0, ACT_PLACE = 1, ACT_RESIGN = 2 };

/* An action's request while its commit waits in a batch (its api_async.pending). */
struct act_wait {
    struct api_game *ag; /* the game, the action applied */
    struct game_play p;  /* the action (ctx is x, set again at each run) */
    struct act_ctx x;    /* its hooks' state (req set again at each run) */
    struct idem idem;    /* the request's Idempotency-Key state (none: not batched) */
    char scope[IDEM_SCOPE_MAX];
    struct game_result r; /* holds the pending commit */
};

/* Frees `w`, dropping its commit if still queued; its game, if committed, goes back to the
 * cache that lent it (games_keep). */
static void act_wait_free(struct act_wait *w)
{
    game_result_free(&w->r);
    free(w->x.refused.body);
    games_keep(w->ag);
    free(w);
}

/* api_async.cancel: the request ended before its commit was done. */
static void act_cancel(struct api_async *a)
{
    act_wait_free(api_async_take(a));
}

/* The answer of action outcome `rc` (`r`, the hooks' state `x`, the key's `idem` in `scope`). */
static void act_answer(const struct api_request *req, struct api_response *resp,
                       enum game_outcome rc, struct game_result *r, struct act_ctx *x,
                       struct idem *idem, const char *scope)
{
    if (rc == GAME_COMMITTED) {
        api_reply_take(resp, x->answer.status, "application/json", r->answer);
        resp->len = r->answer_len;
        r->answer = NULL;
        games_etag(resp, r->version);
    } else if (rc == GAME_PRECONDITION_FAILED) {
        *resp = x->refused;
        x->refused.body = NULL;
    } else if (rc != GAME_DUPLICATE || !idem->active || !idem_begin(req, scope, idem, resp)) {
        /* (A duplicate: the same key raced us and won; answered as a repeat would.) */
        routes_game_outcome(resp, rc == GAME_DUPLICATE && idem->active ? GAME_CONFLICT : rc, r);
    }
    free(x->refused.body);
    x->refused.body = NULL;
    game_result_free(r);
    /* A repeat of a key whose first request was in flight loses the race or finds the game
     * moved on by it: it gets the first answer instead of the refusal. */
    if (idem->active && resp->status >= 400 && resp->status < 500)
        (void)idem_replay_if_done(req, scope, resp);
}

/* The rerun of a request whose commit waits: its answer once done, else wait on (blocked,
 * when the server stops). */
static void act_resume(const struct api_request *req, struct api_response *resp)
{
    struct act_wait *w = req->async->pending;
    w->x.req = req;
    w->x.idem = &w->idem;
    w->p.ctx = &w->x;
    enum game_outcome rc = game_play_resume(&w->ag, &w->p, &w->r, req->stopping);
    if (rc == GAME_PENDING) {
        resp->suspend = API_SUSPEND_WAKE;
        return;
    }
    api_async_take(req->async);
    act_answer(req, resp, rc, &w->r, &w->x, &w->idem, w->scope);
    act_wait_free(w);
}

/*
 * Runs an action for `id`: decode, authenticate, replay, then play it through the game
 * service (game_play: on the game as the cache holds it, and once more on the game as
 * stored if that copy was stale), the outcome mapped to its answer. A request that can wait
 * suspended waits for its commit's batch (game_play.wait; act_resume).
 * `kind` selects placement (body decoded for the game's ruleset), draw or resignation
 * (both with an empty body; a resignation answers like a placement, with 200).
 */
static void act(const struct api_request *req, struct api_response *resp, const char *id,
                enum act_kind kind)
{
    if (req->async && req->async->pending) {
        act_resume(req, resp);
        return;
    }
    int place = kind != ACT_DRAW; /* answered with version and events, not the game */
    struct api_game *ag = games_load(id, GAMES_ANY, resp);
    if (!ag) return;
    int seat = games_seat(req, ag, resp);
    if (seat < 0) goto out;
    struct cc_action a;
    struct json_err err;
    if (kind == ACT_PLACE) {
        if (json_in_placement(req->body, req->body_len, (enum cc_ruleset)ag->g.ruleset, &a, &err)) {
            problem_reply(resp, 400, err.code, err.detail);
            goto out;
        }
    } else {
        if (routes_body_not_empty(req, resp)) goto out;
        memset(&a, 0, sizeof a);
        a.kind = kind == ACT_RESIGN ? CC_ACTION_RESIGN : CC_ACTION_DRAW;
        a.tile = CC_NO_TILE;
    }
    a.seat = (uint8_t)seat;
    struct act_wait *w = calloc(1, sizeof *w);
    if (!w) {
        problem_reply(resp, 500, "internal_error", "Out of memory.");
        goto out;
    }
    if (idem_begin_seat(req, ag->id, seat, w->scope, &w->idem, resp)) {
        free(w);
        goto out;
    }
    w->x = (struct act_ctx){.req = req, .idem = &w->idem};
    w->x.answer.status = place && a.kind == CC_ACTION_PLACE ? 201 : 200;
    w->p = (struct game_play){.action = a,
                              .by = GAME_BY_SEAT,
                              .place = place,
                              .precondition = act_precondition,
                              .answered = act_answered,
                              .ctx = &w->x,
                              .wait = req->stopping ? NULL : req->async};
    enum game_outcome rc = game_play(&ag, &w->p, &w->r);
    w->ag = ag;
    if (rc == GAME_PENDING) {
        req->async->pending = w;
        req->async->cancel = act_cancel;
        resp->suspend = API_SUSPEND_WAKE;
        return;
    }
    act_answer(req, resp, rc, &w->r, &w->x, &w->idem, w->scope);
    act_wait_free(w);
    return;
out:
    games_free(ag);
}

void routes_draw(const struct api_request *req, struct api_response *resp, const char *id)
{
    act(req, resp, id, ACT_DRAW);
}

void routes_placements_post(const struct api_request *req, struct api_response *resp,
                            const char *id)
{
    act(req, resp, id, ACT_PLACE);
}

void routes_resign(const struct api_request *req, struct api_response *resp, const char *id)
{
    act(req, resp, id, ACT_RESIGN);
}

void routes_placements_get(const struct api_request *req, struct api_response *resp, const char *id)
{
    (void)req;
    struct api_game *ag = games_load(id, GAMES_CURRENT, resp);
    if (!ag) return;
    int hand = cc_game_uses_hand(&ag->g);
    if (ag->g.phase == CC_PHASE_FINISHED) {
        problem_engine(resp, CC_ERR_GAME_FINISHED);
    } else if (ag->g.phase != CC_PHASE_PLACE && !hand) {
        problem_engine(resp, CC_ERR_WRONG_PHASE);
    } else {
        struct cc_placement *buf = malloc(CC_MAX_PLACEMENTS * sizeof *buf);
        if (!buf) {
            problem_reply(resp, 500, "internal_error", "Out of memory.");
        } else {
            struct json_out w;
            json_out_init(&w);
            json_placements(&w, &ag->g, buf, CC_MAX_PLACEMENTS);
            api_reply_out(resp, 200, &w);
        }
        free(buf);
        games_etag(resp, ag->row.version);
    }
    games_free(ag);
}
