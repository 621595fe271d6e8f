/* routes_view.c: views for bots and front ends: whose turn it is (/turn) and the board
 * as a picture (/board.svg, /board.png). All carry the game's version as ETag and answer
 * 304 to a matching If-None-Match. The pictures show a past version with ?version=N
 * (replay.h): such an answer never changes, and caches may keep it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board_png.h"
#include "board_svg.h"
#include "clocks.h"
#include "games.h"
#include "idem.h"
#include "json_game.h"
#include "problem.h"
#include "replay.h"
#include "routes.h"

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
    int begun = board_png_begin(ag->id, version, width, &png);
    if (begun < 0) {
        problem_reply(resp, 503, "render_busy",
                      "Every render slot stayed busy while this picture waited; retry shortly.");
        resp->retry_after = BOARD_PNG_RETRY_AFTER;
        goto out;
    }
    if (begun) {
        reply_png(resp, version, &png);
        goto out;
    }
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
    board_png(req, resp, id, want);
    png_cache(resp, want);
}
