/* hand.h: the hand-of-two variant of discovery (option draw = hand), engine-internal. */
#ifndef CC_HAND_H
#define CC_HAND_H

#include <stdbool.h>

#include "game_types.h"

/* Tiles removed face up before play with `nplayers` and the standard pile: 1 for 2 players,
 * 2 for 3, 3 for 4 and 5. */
unsigned cc_hand_removals(unsigned nplayers);

/* Tiles held by player `p` (0..CC_HAND_SIZE). */
unsigned cc_hand_count(const struct cc_player *p);

/* Checks the tile a placement names against the hand of the acting seat: CC_OK,
 * CC_ERR_TILE_REQUIRED (no tile named) or CC_ERR_TILE_NOT_IN_HAND. Changes nothing. */
enum cc_status cc_hand_check_tile(const struct cc_game *g, const struct cc_action *a);

/*
 * Sets up the variant on a fresh game (board with the start tile, pile built): removes
 * the first tiles of a standard pile face up, deals two tiles to each seat in order, and
 * starts the first turn (set-asides, skipping empty hands). Returns false when no player
 * can place a tile (the caller ends the game). Emits CC_EV_TILES_REMOVED,
 * CC_EV_HAND_DEALT and CC_EV_TILE_DISCARDED events into `ev` (may be NULL).
 */
bool cc_hand_setup(struct cc_game *g, struct cc_events *ev);

/*
 * Starts the turn of the first seat from `from` on (in seat order) that holds a tile
 * after its unfit tiles are set aside and replaced (a resigned seat holds none): the
 * seat to move then. Returns false when no seat holds a tile (the seat is unchanged).
 */
bool cc_hand_next_turn(struct cc_game *g, unsigned from, struct cc_events *ev);

/*
 * Ends the turn of the seat to move, which has just placed hand tile `type`: the tile
 * leaves the hand, a replacement is drawn while the pile lasts, and the next seat holding
 * a tile that fits is found (its unfit tiles set aside and replaced first; empty hands
 * skipped; `turn` counts on). Returns false when no player holds a tile any more (the
 * caller ends the game; the seat is then left unchanged).
 */
bool cc_hand_end_turn(struct cc_game *g, uint8_t type, struct cc_events *ev);

#endif
