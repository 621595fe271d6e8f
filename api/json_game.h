/* json_game.h: the engine's game, events, placements and scores as the API's JSON. */
#ifndef API_JSON_GAME_H
#define API_JSON_GAME_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "game.h"

/* What the service adds to an engine game. */
struct json_game_meta {
    const char *id;           /* the game's UUID */
    int version;              /* grows by one per accepted action */
    const char *const *names; /* player names by seat (g->nplayers) */
};

/* The options of `g` as a JSON object (defaults filled in). NULL on allocation failure. */
cJSON *json_options(const struct cc_game *g);

/*
 * The public state of `g` (as GET /v1/games/{id}): never the seed or the draw order
 * while the game runs; both once it is finished. NULL on allocation failure; the caller
 * deletes the result.
 */
cJSON *json_game(const struct cc_game *g, const struct json_game_meta *meta);

/*
 * Appends the events ev->ev[from..ev->n) of `g` (the state after them) to the array
 * `out`, numbered from seq `seq`; a follower_returned event is folded into the
 * feature_scored/final_scored event before it as "returned". Returns the number of
 * events appended (the next seq is seq + that).
 */
int json_events(const struct cc_game *g, const struct cc_events *ev, size_t from, int seq,
                cJSON *out);

/*
 * The legal placements of the tile(s) to place, as {"tile", "placements": [...]}; uses
 * `buf` (capacity `cap`) as scratch. NULL on allocation failure.
 */
cJSON *json_placements(const struct cc_game *g, struct cc_placement *buf, size_t cap);

/* The scores, breakdowns, projected final scores and winners (GET .../scores). */
cJSON *json_scores(const struct cc_game *g, const char *const *names);

/* The action as applied, for the action log (API names and units). */
cJSON *json_action(const struct cc_game *g, const struct cc_action *a);

/* The id of tile type `t` in the ruleset of `g` ("D", "RA" ...), or NULL. */
const char *json_tile_id(const struct cc_game *g, unsigned t);

/* "active" or "finished". */
const char *json_status(const struct cc_game *g);

#endif
