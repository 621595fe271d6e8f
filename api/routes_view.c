/* routes_view.c: views for bots and front ends: whose turn it is (/turn) and the board
 * as a picture (/board.svg). Both carry the game's version as ETag and answer 304 to a
 * matching If-None-Match. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board_svg.h"
#include "games.h"
#include "idem.h"
#include "json_game.h"
#include "problem.h"
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
    json_out_kstring(&w, "status", json_status(g));
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
    struct api_game *ag = games_load(id, GAMES_CURRENT, resp);
    if (!ag) return;
    if (idem_if_none_match(req, ag->row.version, resp)) {
        resp->cache_control = "no-cache";
        games_free(ag);
        return;
    }
    char *svg = board_svg_new(&ag->g, ag->names);
    if (!svg) {
        problem_reply(resp, 500, "internal_error", "The picture could not be drawn.");
    } else {
        api_reply_take(resp, 200, "image/svg+xml", svg);
        games_etag(resp, ag->row.version);
        /* Browsers keep it and ask again with If-None-Match: a 304 costs one small query. */
        resp->cache_control = "no-cache";
    }
    games_free(ag);
}
