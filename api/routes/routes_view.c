/* routes_view.c: views for bots and front ends: whose turn it is (/turn) and the board
 * as a picture (/board.svg, /board.png). All carry the game's version as ETag and answer
 * 304 to a matching If-None-Match. The pictures show a past version with ?version=N
 * (replay.h): such an answer never changes, and caches may keep it. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board_png.h"
#include "board_svg.h"
#include "clocks.h"
#include "game_answers.h"
#include "idem.h"
#include "peer.h"
#include "json_game.h"
#include "problem.h"
#include "replay.h"
#include "routes.h"
#include "store_games.h"

void routes_turn_view(const struct api_request *req, struct api_response *resp, const char *id)
{
    struct api_game *ag = games_load(id, GAMES_CURRENT, resp);
    if (!ag) return;
    const struct cc_game *g = &ag->g;
    struct cc_placement *buf = NULL;
    if (idem_if_none_match(req, ag->row.version, resp)) goto out;
    int finished = g->phase == CC_PHASE_FINISHED;
    int hand = cc_game_uses_hand(g);
    int placing = !finished && (g->phase == CC_PHASE_PLACE || hand);
    if (placing && !(buf = malloc(CC_MAX_PLACEMENTS * sizeof *buf))) {
        problem_reply(resp, 500, "internal_error", "Out of memory.");
        goto out;
    }
    struct json_out w;
    json_out_init(&w);
    json_out_begin_object(&w);
    json_out_kstring(&w, "id", ag->id);
    json_out_kint(&w, "version", ag->row.version);
    json_out_kstring(&w, "status", games_status(ag));
    json_out_kint(&w, "number", g->turn);
    json_out_kint_or_null(&w, "seat", !finished, g->seat);
    json_out_key(&w, "name");
    if (finished)
        json_out_null(&w);
    else
        json_out_string(&w, ag->names[g->seat]);
    json_out_kstring(&w, "phase", finished ? "finished" : placing ? "place" : "draw");
    json_out_key(&w, "tile");
    json_drawn_tile(&w, g);
    if (hand) {
        json_out_key(&w, "hand");
        json_out_begin_array(&w);
        for (int i = 0; !finished && i < CC_HAND_SIZE; i++) {
            unsigned t = g->players[g->seat].hand[i];
            if (t != CC_NO_TILE) json_tile(&w, g, t);
        }
        json_out_end_array(&w);
    }
    json_out_kint(&w, "deck_remaining", cc_tiles_remaining(g));
    json_extra_turn(&w, g);
    if (!finished &&
        (cc_figure_in_game(g, CC_PIECE_LARGE) || cc_figure_in_game(g, CC_PIECE_BUILDER))) {
        /* The expansions: what the seat to move has to deploy, and its goods. */
        json_out_key(&w, "supply");
        json_out_begin_object(&w);
        json_out_kint(&w, "followers", g->players[g->seat].followers);
        json_supply(&w, g, g->seat);
        json_out_end_object(&w);
    }
    if (ag->row.clock.kind) {
        /* The clock (0011): the deadline and, with a bank, each seat's time as of now. */
        clocks_json(&w, &ag->row.clock, g);
        if (ag->row.clock.kind == STORE_CLOCK_BANK) {
            json_out_key(&w, "clock_ms");
            json_out_begin_array(&w);
            for (unsigned s = 0; s < g->nplayers; s++)
                json_out_int(&w, clocks_bank_now(&ag->row.clock, g, s));
            json_out_end_array(&w);
        }
    }
    json_out_key(&w, "placements");
    if (placing)
        json_placement_list(&w, g, buf, CC_MAX_PLACEMENTS);
    else {
        json_out_begin_array(&w);
        json_out_end_array(&w);
    }
    json_out_end_object(&w);
    api_reply_out(resp, 200, &w);
    if (resp->status == 200) {
        games_etag(resp, ag->row.version);
        resp->cache_control = "no-cache";
    }
out:
    free(buf);
    games_free(ag);
}

void routes_board_svg(const struct api_request *req, struct api_response *resp, const char *id)
{
    int want;
    if (replay_version_param(req, resp, &want)) return;
    if (want >= 0) {
        /* A past version: a 304 needs only the version stored now (one small query). */
        int version;
        if (games_current_version(id, req, resp, &version)) return;
        if (version >= 0 && want <= version && idem_if_none_match(req, want, resp)) {
            replay_cache_forever(resp);
            return;
        }
    }
    struct api_game *ag =
        want >= 0 ? replay_load(id, want, resp) : games_load(id, GAMES_CURRENT, resp);
    if (!ag) return;
    if (!idem_if_none_match(req, ag->row.version, resp)) {
        char *svg = board_svg_new(&ag->g, ag->names);
        if (!svg) {
            problem_reply(resp, 500, "internal_error", "The picture could not be drawn.");
        } else {
            api_reply_take(resp, 200, "image/svg+xml", svg);
            games_etag(resp, ag->row.version);
        }
    }
    /* Browsers keep it and ask again with If-None-Match: a 304 costs one small query. */
    if (resp->status == 200 || resp->status == 304) {
        if (want >= 0)
            replay_cache_forever(resp);
        else
            resp->cache_control = "no-cache";
    }
    games_free(ag);
}

/* Answers 200 with the picture `png` (taken) and the ETag of `version`. */
static void reply_png(struct api_response *resp, int version, struct board_png *png)
{
    size_t len = png->len;
    api_reply_take(resp, 200, "image/png", png->data);
    resp->len = len;
    png->data = NULL;
    games_etag(resp, version);
    resp->cache_control = "no-cache"; /* as board.svg */
}

/* board.png's answer for ?version=`want` (-1: the current one) once `resp` is set. */
static void png_cache(struct api_response *resp, int want)
{
    if (want >= 0 && (resp->status == 200 || resp->status == 304)) replay_cache_forever(resp);
}

/* A picture drawn on a render thread while its request waits suspended. */
struct png_wait {
    struct board_png_job job; /* first: what the render thread sees */
    struct api_async *async;  /* the waiting request's (until cancelled) */
    int done;                 /* 1: rendered (job.rc, job.png hold) */
    int cancelled;            /* 1: the request ended first: the render thread frees it */
    int waking;               /* 1: the render thread is waking the request */
};

static pthread_mutex_t plock = PTHREAD_MUTEX_INITIALIZER; /* guards the flags of every wait */
static pthread_cond_t pwoke = PTHREAD_COND_INITIALIZER;   /* a render thread's wake is over */

/* Frees a wait and its picture. */
static void png_wait_free(struct png_wait *w)
{
    board_png_free(&w->job.png);
    free(w->job.svg);
    free(w);
}

/* board_png_job.done: wakes the request (unless it went away). */
static void png_done(struct board_png_job *j)
{
    struct png_wait *w = (struct png_wait *)j;
    pthread_mutex_lock(&plock);
    if (w->cancelled) {
        pthread_mutex_unlock(&plock);
        png_wait_free(w);
        return;
    }
    w->done = 1;
    w->waking = 1; /* the request, and so w->async, lives until this is 0 */
    pthread_mutex_unlock(&plock);
    w->async->wake(w->async->wake_arg);
    pthread_mutex_lock(&plock);
    w->waking = 0;
    pthread_cond_broadcast(&pwoke);
    pthread_mutex_unlock(&plock);
}

/* api_async.cancel: the request ended before it took its picture. */
static void png_cancel(struct api_async *a)
{
    struct png_wait *w = api_async_take(a);
    pthread_mutex_lock(&plock);
    if (!w->done) {
        w->cancelled = 1; /* still drawing: the render thread frees it */
        w = NULL;
    } else {
        while (w->waking) pthread_cond_wait(&pwoke, &plock);
    }
    pthread_mutex_unlock(&plock);
    if (w) png_wait_free(w);
}

/* The rerun of a request whose picture is being drawn: the picture once drawn, else wait on.
 */
static void png_resume(const struct api_request *req, struct api_response *resp)
{
    struct api_async *a = req->async;
    struct png_wait *w = a->pending;
    pthread_mutex_lock(&plock);
    int done = w->done;
    if (done) {
        api_async_take(a);
        while (w->waking) pthread_cond_wait(&pwoke, &plock); /* the wake is short */
    }
    pthread_mutex_unlock(&plock);
    if (!done) {
        resp->suspend = API_SUSPEND_WAKE;
        return;
    }
    if (w->job.rc)
        problem_reply(resp, 500, "internal_error", "The picture could not be drawn.");
    else
        reply_png(resp, w->job.version, &w->job.png);
    png_wait_free(w);
}

/* Draws the picture of `ag` at `width` on a render thread while the request waits
 * suspended (the slot of board_png_begin() taken). Returns 0 when it does (resp->suspend
 * set, or a 500 answered), -1 when it cannot (no way to wait, no thread): the caller draws
 * it itself. */
static int png_render_off_thread(const struct api_request *req, struct api_response *resp,
                                 const struct api_game *ag, int version, int width)
{
    if (!req->async || req->stopping) return -1;
    struct png_wait *w = calloc(1, sizeof *w);
    if (!w) return -1;
    snprintf(w->job.id, sizeof w->job.id, "%s", ag->id);
    w->job.version = version;
    w->job.width = width;
    w->job.done = png_done;
    w->async = req->async;
    if (!(w->job.svg = board_svg_new(&ag->g, ag->names))) {
        free(w);
        board_png_end(ag->id, version, width, NULL);
        problem_reply(resp, 500, "internal_error", "The picture could not be drawn.");
        return 0;
    }
    req->async->pending = w;
    req->async->cancel = png_cancel;
    if (board_png_spawn(&w->job) == 0) {
        resp->suspend = API_SUSPEND_WAKE;
        return 0;
    }
    api_async_take(req->async);
    png_wait_free(w);
    return -1;
}

static void board_png(const struct api_request *req, struct api_response *resp, const char *id,
                      int want)
{
    int width;
    if (board_png_width(api_query_get(req, "width"), &width)) {
        problem_reply(resp, 400, "invalid_parameter",
                      "width must be a whole number of pixels from 64 to 4096.");
        return;
    }
    /* The version first (one small query): a 304 or a cached picture needs no game. */
    int version;
    if (games_current_version(id, req, resp, &version)) return;
    if (version >= 0 && want >= 0) {
        if (want > version) {
            problem_reply(resp, 404, "version_not_found",
                          "The game has not reached this version (yet): see its version.");
            return;
        }
        version = want;
    }
    struct board_png png = {0};
    if (version >= 0) {
        if (idem_if_none_match(req, version, resp)) {
            resp->cache_control = "no-cache";
            return;
        }
        if (board_png_cached(id, version, width, &png)) {
            reply_png(resp, version, &png);
            return;
        }
    }
    struct api_game *ag =
        want >= 0 ? replay_load(id, want, resp) : games_load_at(id, GAMES_CURRENT, version, resp);
    if (!ag) return;
    version = ag->row.version;
    if (idem_if_none_match(req, version, resp)) {
        resp->cache_control = "no-cache";
        goto out;
    }
    uint8_t peer[PEER_KEY_LEN];
    peer_key(req->client_addr, peer);
    int begun = board_png_begin(ag->id, version, width, peer, &png);
    if (begun == BOARD_PNG_BUSY && req->async && !req->stopping &&
        api_now_ms() - req->started_ms < board_png_wait()) {
        /* No slot now: the request waits suspended, holding no thread, and runs again at
         * the next tick (from the top: the picture may be cached by then). */
        resp->suspend = API_SUSPEND_TICK;
        goto out;
    }
    if (begun < 0) {
        problem_reply(resp, 503, "render_busy",
                      begun == BOARD_PNG_ADDRESS_BUSY
                          ? "A picture is being drawn for this address already; retry shortly."
                          : "Every render slot stayed busy while this picture waited; retry "
                            "shortly.");
        resp->retry_after = BOARD_PNG_RETRY_AFTER;
        goto out;
    }
    if (begun) {
        reply_png(resp, version, &png);
        goto out;
    }
    if (png_render_off_thread(req, resp, ag, version, width) == 0) goto out;
    /* No way to wait (or no thread): drawn here. */
    char *svg = board_svg_new(&ag->g, ag->names);
    int rc = svg ? board_png_render(svg, strlen(svg), width, &png) : -1;
    free(svg);
    board_png_end(ag->id, version, width, rc == 0 ? &png : NULL);
    if (rc)
        problem_reply(resp, 500, "internal_error", "The picture could not be drawn.");
    else
        reply_png(resp, version, &png);
out:
    board_png_free(&png);
    games_free(ag);
}

void routes_board_png(const struct api_request *req, struct api_response *resp, const char *id)
{
    int want;
    if (replay_version_param(req, resp, &want)) return;
    /* A picture drawn on a render thread (pending may also be the batcher's question of
     * games_current_version(): that is asked again in board_png()). */
    if (req->async && req->async->pending && req->async->cancel == png_cancel) {
        png_resume(req, resp);
    } else {
        board_png(req, resp, id, want);
    }
    png_cache(resp, want);
}
