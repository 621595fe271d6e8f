/* placement.h: where a tile may go, and what may follow (engine-internal). */
#ifndef CC_PLACEMENT_H
#define CC_PLACEMENT_H

#include <stdbool.h>

#include "game.h"

/* Whether tile `type` may lie at (x, y) turned `rot`: square, sides and the
 * placement rules of the tile's module (the River's).
 * Returns CC_OK or the first rule it breaks. Changes nothing. */
enum cc_status cc_check_position(const struct cc_game *g, uint8_t type, int x, int y, unsigned rot);

/* Whether feature `f` of `t` placed at (x, y) turned `rot` would join a feature that
 * already holds a follower. */
bool cc_feature_would_be_occupied(const struct cc_game *g, const struct cc_tile_type *t, unsigned f,
                                  int x, int y, unsigned rot);

#endif
