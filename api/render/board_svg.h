/* board_svg.h: a game's board as a picture (SVG 1.1), drawn from the tile catalogue. */
#ifndef API_BOARD_SVG_H
#define API_BOARD_SVG_H

#include "game.h"
#include "nodiscard.h"

/* The largest document board_svg_new() writes; a legal game stays far below it. */
#define BOARD_SVG_MAX (4u << 20)

/*
 * Draws the board of `g` as it stands: every placed tile at its square (x east, y south),
 * turned as placed, its features drawn from the catalogue (cities, farmlands, mountains,
 * grasslands and seas as areas over the sides they cover, roads, trails and rivers as
 * strokes, fields and meadows as the ground, monasteries, pennants, harvest symbols,
 * animals, port cities; with the expansions of classic inns, cathedrals, goods symbols and
 * the field walled in the middle: board_marks.c), the pieces in their seats' colours
 * (0 blue, 1 red, 2 green, 3 yellow, 4 black, 5 grey) as their figures (follower, farmer
 * lying down, stable, large follower, builder, pig), and a legend: seat names, colours,
 * scores, supplies of the expansions' figures and goods, the seat to move (and a builder's
 * extra turn) and the tile to place, and a key to the pictures of the game's ruleset and
 * expansions. `names` holds the player names by seat (any may be NULL, or `names`
 * itself: "Seat N" is shown); they are escaped, and bytes that are not UTF-8 text are
 * shown as '?'. `g` must be a game the engine made (cc_game_check() holds).
 *
 * The same game and names give the same bytes. Returns a NUL-terminated document that the
 * caller frees with free(), or NULL when memory runs out (or the document would exceed
 * BOARD_SVG_MAX, which no legal game reaches).
 */
char *board_svg_new(const struct cc_game *g, const char *const names[CC_MAX_PLAYERS]) NODISCARD;

#endif
