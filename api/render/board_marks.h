/* board_marks.h: the marks of the expansions of classic on a board picture (board_svg.c):
 * inns, cathedrals, goods symbols, and the large follower, builder and pig. */
#ifndef API_BOARD_MARKS_H
#define API_BOARD_MARKS_H

#include <stdbool.h>

#include "buf.h"
#include "game.h"

/* An inn (a tankard on a sign) centred at (x, y), about 11 px across. */
void mark_inn(struct buf *b, int x, int y);

/* A cathedral (a nave and a spire with a cross) standing on (x, y), about 14 x 19 px. */
void mark_cathedral(struct buf *b, int x, int y);

/* A goods symbol of kind `goods` (enum cc_goods) centred at (x, y) on a light disc of
 * radius 6: wine a bunch of grapes, grain an ear of wheat, cloth a bolt of cloth. */
void mark_goods(struct buf *b, int x, int y, unsigned goods);

/*
 * A figure of an expansion (enum cc_piece_kind: CC_PIECE_LARGE, CC_PIECE_BUILDER or
 * CC_PIECE_PIG) at (x, y), filled with `fill` and outlined with `edge` (the seat's
 * colours), as one element of class "`cls` large" (or builder, pig) whose title is
 * "large follower of seat N`title_extra`" (builder ..., pig ...). The large follower is
 * the follower's shape half as large again (lying, like a farmer, when `lying`), the
 * builder a slim pawn with a hammer, the pig a pig seen from the side: three silhouettes
 * unlike the follower's and each other's. Returns false (nothing written) for any other
 * kind.
 */
bool mark_figure(struct buf *b, const char *cls, unsigned kind, unsigned seat, const char *fill,
                 const char *edge, bool lying, int x, int y, const char *title_extra);

/* The name of figure `kind` in titles and the key ("large follower", "builder", "pig"),
 * or NULL for a kind that is not an expansion's. */
const char *mark_figure_name(unsigned kind);

/* The follower's outline as a path about (0, 0), 14 x 16 px (board_svg.c draws followers
 * with it; the large follower is it scaled). */
extern const char mark_follower_path[];

#endif
