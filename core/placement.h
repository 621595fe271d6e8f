/* placement.h: where a tile may go, and what may follow (engine-internal). */
#ifndef CC_PLACEMENT_H
#define CC_PLACEMENT_H

#include <stdbool.h>

#include "game_types.h"

/* Whether tile `type` may lie at (x, y) turned `rot`: square, sides and the
 * placement rules of the tile's module (the River's).
 * Returns CC_OK or the first rule it breaks. Changes nothing. */
enum cc_status cc_check_position(const struct cc_game *g, uint8_t type, int x, int y, unsigned rot);

/* Whether feature `f` of `t` placed at (x, y) turned `rot` would join a feature that
 * already holds a follower. */
bool cc_feature_would_be_occupied(const struct cc_game *g, const struct cc_tile_type *t, unsigned f,
                                  int x, int y, unsigned rot);

/* Of the engine's public interface (game.h includes this header): */

/* The locations of placement `p` where a piece of `kind` (enum cc_piece_kind) may go: its
 * mask of that kind, 0 for a kind out of range. */
unsigned cc_placement_locations(const struct cc_placement *p, unsigned kind);

/*
 * Writes every legal placement of the tile(s) the seat to move may place into `out`
 * (at most `cap`) and returns how many there are (which may exceed `cap`). With
 * `followups` each entry also lists the follow-ups it allows (else those masks are 0).
 * Returns 0 outside the place phase. Order: frontier order, then rotation; in the hand
 * variant first by hand tile, in hand order (each entry's `tile`; a type held twice is
 * listed once).
 */
size_t cc_legal_placements(const struct cc_game *g, struct cc_placement *out, size_t cap,
                           bool followups);

struct cc_rng;

/*
 * A uniform random choice among what cc_legal_placements() lists, without listing them
 * (what a random playout needs): returns their number n and, when n > 0, draws
 * k = cc_rng_below(rng, n) once and writes entry k of that list, follow-up masks 0, into
 * *out. Exactly list[cc_rng_below(rng, n)] of a full listing; with n 0 the generator is
 * not used.
 */
size_t cc_random_placement(const struct cc_game *g, struct cc_rng *rng, struct cc_placement *out);

/* Fills the follow-up masks of `p`, a legal placement of the seat to move. */
void cc_placement_followups(const struct cc_game *g, struct cc_placement *p);

/* True when `type` fits somewhere on the board now (for set-aside decisions). */
bool cc_tile_fits_somewhere(const struct cc_game *g, uint8_t type);

#endif
