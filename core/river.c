/* river.c: the River, a module of classic (shared/rules/classic.md "The River").
 *
 * Its twelve tiles (set river) are dealt before the land: the spring is the start tile,
 * the lake comes last, and the land start tile leaves the game. A river tile must continue
 * the river from its open end and may not turn the same way twice in a row; no piece
 * stands on the river. Its state is g->river_open_side, river_last_turn and river_tile.
 */

#include "board.h"
#include "game.h"
#include "modules.h"
#include "rng.h"

/* The lake: the river tile with one river side that is not the spring. */
static int lake_type(const struct cc_tileset *ts)
{
    for (int i = 0; i < ts->ntypes; i++) {
        const struct cc_tile_type *t = &ts->types[i];
        int rivers = 0;
        for (int s = 0; s < 4; s++) rivers += t->edges[s] == CC_EDGE_RIVER;
        if (t->set == CC_SET_RIVER && !t->is_start && rivers == 1) return i;
    }
    return -1;
}

/* The spring: the start tile of the river set. */
static int spring_type(const struct cc_tileset *ts)
{
    for (int i = 0; i < ts->ntypes; i++)
        if (ts->types[i].set == CC_SET_RIVER && ts->types[i].is_start) return i;
    return -1;
}

/* The river tiles but the start and the lake, shuffled, then the lake; the land start
 * tile leaves the land (once, even if it is the start). */
static void river_deck(const struct cc_tileset *ts, uint8_t start, struct cc_rng *rng,
                       uint8_t *front, unsigned *nfront, uint8_t *land, unsigned *nland)
{
    unsigned n = 0;
    int lake = lake_type(ts);
    for (int i = 0; i < ts->ntypes; i++) {
        const struct cc_tile_type *t = &ts->types[i];
        if (t->set != CC_SET_RIVER || i == lake) continue;
        for (unsigned k = 0; k < t->count; k++) front[n++] = (uint8_t)i;
    }
    cc_pile_remove(front, &n, start);
    if (start != ts->start_type) cc_pile_remove(land, nland, ts->start_type);
    cc_rng_shuffle(rng, front, n);
    if (lake >= 0 && start != lake) front[n++] = (uint8_t)lake;
    *nfront = n;
}

/* The river state from the start tile: its river sides are the open end. */
static void river_init(struct cc_game *g, const struct cc_tile_type *start)
{
    g->river_open_side = 0xFF;
    g->river_last_turn = 0;
    g->river_tile = 0;
    for (int s = 0; s < 4; s++)
        if (start->edges[s] == CC_EDGE_RIVER) g->river_open_side = (uint8_t)s;
}

/* How a river tile turned `rot` would bend the river from its open end:
 * 0 straight (or no exit), 1 right, 2 left. */
static unsigned river_turn(const struct cc_game *g, const struct cc_tile_type *t, unsigned rot)
{
    unsigned flow = g->river_open_side;
    if (flow > 3) return 0;
    unsigned entry = (flow + 2) & 3;
    for (unsigned s = 0; s < 4; s++) {
        unsigned edge = (t->edge_code[rot] >> (4 * s)) & 0xF;
        if (edge != CC_EDGE_RIVER || s == entry || s == flow) continue;
        return s == ((flow + 1) & 3) ? 1u : 2u;
    }
    return 0;
}

/* A river tile continues the open end (before the sides are looked at), then matches its
 * sides, then does not turn the way the last one did. */
static enum cc_status river_check_position(const struct cc_game *g, const struct cc_tile_type *t,
                                           int x, int y, unsigned rot, enum cc_status edges)
{
    if (g->river_open_side > 3) return CC_ERR_RIVER_NOT_CONTINUED;
    const struct cc_placed *end = &g->board[g->river_tile];
    if (x != end->x + cc_side_dx[g->river_open_side] ||
        y != end->y + cc_side_dy[g->river_open_side])
        return CC_ERR_RIVER_NOT_CONTINUED;
    if (edges != CC_OK) return edges;
    unsigned turn = river_turn(g, t, rot);
    if (turn != 0 && turn == g->river_last_turn) return CC_ERR_RIVER_U_TURN;
    return CC_OK;
}

/* Moves the river's open end on after a river tile was placed at board index `tile`. */
static void river_placed(struct cc_game *g, unsigned tile, const struct cc_tile_type *t,
                         unsigned joined)
{
    (void)joined;
    if (!t->is_river || g->river_open_side == 0xFF) return;
    unsigned flow = g->river_open_side;
    g->river_last_turn = (uint8_t)river_turn(g, t, g->board[tile].rot);
    g->river_open_side = 0xFF;
    for (unsigned s = 0; s < 4; s++) {
        unsigned edge = (t->edge_code[g->board[tile].rot] >> (4 * s)) & 0xF;
        if (edge == CC_EDGE_RIVER && s != ((flow + 2) & 3)) g->river_open_side = (uint8_t)s;
    }
    g->river_tile = (uint8_t)tile;
}

static enum cc_status river_check_deploy(const struct cc_game *g, unsigned kind)
{
    (void)g;
    return kind == CC_KIND_RIVER ? CC_ERR_RIVER_NOT_ALLOWED : CC_OK;
}

/* The river tiles with two river sides come first, in an unknown order, then the lake. */
static unsigned river_pile_class(const struct cc_tile_type *t)
{
    unsigned rivers = 0;
    for (unsigned s = 0; s < 4; s++) rivers += t->edges[s] == CC_EDGE_RIVER;
    return rivers == 1;
}

const struct cc_module cc_river_module = {
    .name = "river",
    .set = CC_SET_RIVER,
    .option = CC_OPT_RIVER,
    .on_mask = 1,
    .tile_refused = CC_ERR_RIVER_TILE_WITHOUT_RIVER,
    .start_type = spring_type,
    .deck = river_deck,
    .init = river_init,
    .check_position = river_check_position,
    .placed = river_placed,
    .check_deploy = river_check_deploy,
    .pile_class = river_pile_class,
};
