/* board.h: squares, the frontier and the feature graph of a game (engine-internal). */
#ifndef CC_BOARD_H
#define CC_BOARD_H

#include <stdbool.h>
#include <stdint.h>

#include "game_types.h"

/* Square offsets of the four sides N, E, S, W. */
static const int8_t cc_side_dx[4] = {0, 1, 0, -1};
static const int8_t cc_side_dy[4] = {-1, 0, 1, 0};

static inline uint16_t cc_node(unsigned tile, unsigned feature)
{
    return (uint16_t)(tile * CC_MAX_TILE_FEATURES + feature);
}

static inline unsigned cc_node_tile(unsigned node)
{
    return node / CC_MAX_TILE_FEATURES;
}

static inline unsigned cc_node_feature(unsigned node)
{
    return node % CC_MAX_TILE_FEATURES;
}

/* The compiled-in catalogues (tileset.c). */
extern const struct cc_tileset cc_tileset_data[CC_RULESET_COUNT];

/* The tile types of the game's ruleset. */
static inline const struct cc_tile_type *cc_types(const struct cc_game *g)
{
    return cc_tileset_data[g->ruleset].types;
}

/* The type of placed tile `i`. */
static inline const struct cc_tile_type *cc_placed_type(const struct cc_game *g, unsigned i)
{
    return &cc_types(g)[g->board[i].type];
}

/* struct cc_game's frontier_nb[] where a side has no tile. */
#define CC_NO_SIDE_TILE 0xFFu
_Static_assert(CC_MAX_BOARD <= CC_NO_SIDE_TILE, "a tile index fits frontier_nb[] below it");

/* Squares farther out than this cannot be next to a tile (the board has at most
 * CC_MAX_BOARD tiles around (0, 0)), so they are never stored. */
#define CC_FAR (CC_MAX_BOARD + 2)

static inline bool cc_in_reach(int x, int y)
{
    return x >= -CC_FAR && x <= CC_FAR && y >= -CC_FAR && y <= CC_FAR;
}

/* A nonzero key per square in reach; 0 marks an empty hash slot. */
static inline uint32_t cc_cell_key(int x, int y)
{
    return (uint32_t)(x + CC_FAR) * (2 * CC_FAR + 1) + (uint32_t)(y + CC_FAR) + 1u;
}

#define CC_CELL_BITS 10
_Static_assert(CC_CELL_TABLE == 1u << CC_CELL_BITS, "CC_CELL_BITS must match CC_CELL_TABLE");

/* The slot holding the square of `key`, or the empty slot where it would go (Fibonacci
 * hashing: the top bits of the product mix both coordinates; then linear probing). */
static inline unsigned cc_cell_slot(const struct cc_game *g, uint32_t key)
{
    unsigned i = (key * 0x9E3779B1u) >> (32 - CC_CELL_BITS);
    while (g->cell_key[i] != 0 && g->cell_key[i] != key) i = (i + 1) & (CC_CELL_TABLE - 1);
    return i;
}

/* Set bits of a 16-bit mask (without relying on a popcount instruction being enabled: the
 * builtin is a library call then). */
static inline unsigned cc_bits16(unsigned m)
{
    m = m - ((m >> 1) & 0x5555u);
    m = (m & 0x3333u) + ((m >> 2) & 0x3333u);
    m = (m + (m >> 4)) & 0x0F0Fu;
    return (m + (m >> 8)) & 0x1Fu;
}

/* Hash slot lookup: the cell_val of (x, y), or -1 when the square is unknown (not placed,
 * not next to a placed tile). Inline: it is on the engine's hottest paths. */
static inline int cc_cell_get(const struct cc_game *g, int x, int y)
{
    if (!cc_in_reach(x, y)) return -1;
    uint32_t key = cc_cell_key(x, y);
    unsigned i = cc_cell_slot(g, key);
    return g->cell_key[i] == key ? g->cell_val[i] : -1;
}

/* Whether the square holds a placed tile; its index in *tile if so. */
static inline bool cc_square_tile(const struct cc_game *g, int x, int y, unsigned *tile)
{
    int v = cc_cell_get(g, x, y);
    if (v < 0 || (v & CC_CELL_FRONTIER)) return false;
    if (tile) *tile = (unsigned)v;
    return true;
}

/*
 * The edge constraint of an empty square from its placed neighbours: sides with a
 * neighbour get 4 bits in *mask and the neighbour's facing edge kind in *want, so that
 * a rotated tile fits iff (edge_code & mask) == want. Returns the number of neighbours.
 */
int cc_square_constraint(const struct cc_game *g, int x, int y, uint16_t *mask, uint16_t *want);

/* Puts tile `type` at (x, y) turned `rot`: squares, frontier, neighbour counts and the
 * feature graph (joins across every side). The square must be a frontier square (or the
 * board empty). Returns the new tile's board index, and in *joined (when not NULL) the
 * holders[] bits of the features the tile joined, as they were before (no piece stands on
 * the new tile yet). Never fails for a legal placement. */
unsigned cc_board_place(struct cc_game *g, uint8_t type, int x, int y, uint8_t rot,
                        uint16_t *joined);

/* Rebuilds squares, frontier and feature graph from board[0..nboard) in order, checking
 * that the first tile is at (0, 0) unturned and each other one lies next to earlier ones
 * with matching sides, and holders[] from the pieces. Returns false (board unspecified) when
 * they do not. */
bool cc_board_rebuild(struct cc_game *g) NODISCARD;

/* Resets the board to empty (no tiles, no frontier, empty graph). */
void cc_board_clear(struct cc_game *g);

/* A piece's bit in struct cc_game's holders[]: its seat's for a follower or the large
 * follower, CC_HOLDER_BUILDER higher for a builder, none for the other figures. */
static inline uint16_t cc_holder_bit(const struct cc_piece *pc)
{
    if (cc_piece_is_follower(pc->kind)) return (uint16_t)(1u << pc->seat);
    if (pc->kind == CC_PIECE_BUILDER) return (uint16_t)(1u << (CC_HOLDER_BUILDER + pc->seat));
    return 0;
}

/* holders[root] recomputed from the pieces (after a piece left or moved off that feature). */
void cc_holders_refresh(struct cc_game *g, uint16_t root);

/* Every root's holders[] recomputed from the pieces (a rebuilt or decoded game). */
void cc_holders_rebuild(struct cc_game *g);

/* Distinct tiles of the feature with root `root`. */
unsigned cc_feature_tiles(const struct cc_game *g, uint16_t root);

/* Sum of the pennants of the feature with root `root`. */
unsigned cc_feature_pennants(const struct cc_game *g, uint16_t root);

/* What the segments of a road or city carry, summed in one pass over them: its tiles (each
 * once), pennants, and the symbols of the expansions of classic (an inn, a cathedral, goods).
 * The scoring of classic takes it once and the modules read their symbols from it, instead
 * of a pass over the feature each. */
struct cc_feature_sum {
    unsigned tiles, pennants;
    bool inn, cathedral;
    uint8_t goods[CC_GOODS_COUNT];
};
void cc_feature_sum(const struct cc_game *g, uint16_t root, struct cc_feature_sum *out);

/* Port cities on the segments of the feature with root `root` (discovery). A segment's
 * `ports` counts the cities whose land (for a land segment) or whose sea (for a sea segment)
 * it is. */
unsigned cc_feature_ports(const struct cc_game *g, uint16_t root);

/* The board indices of the tiles on the four sides (N, E, S, W) of (x, y), -1 where none. */
void cc_side_tiles(const struct cc_game *g, int x, int y, int nb[4]);

/* What a placement of a tile turned `rot` on a square would join: the distinct roots of the
 * features beyond the square's sides, each with the tile's features that touch it, and the
 * tile's features' groups. Two segments of the tile are one feature once placed when both
 * join one feature beyond its sides (a road ring closed from two sides, the fields on both
 * sides of a road that meet the one field around a monastery), and so on through others. */
struct cc_joins {
    int nb[4];                            /* the side tiles, -1 where none (cc_side_tiles()) */
    unsigned n;                           /* distinct roots beyond */
    uint16_t root[12];                    /* those roots */
    uint16_t touch[12];                   /* per root: bits of the tile's features touching it */
    uint16_t group[CC_MAX_TILE_FEATURES]; /* per feature: bits of the features of its group */
};

/* The joins of a tile of `type` turned `rot` placed at (x, y): from what a frontier square
 * keeps (frontier_node[]), or from its side tiles on any other square. */
void cc_joins_at(const struct cc_game *g, const struct cc_tile_type *type, int x, int y,
                 unsigned rot, struct cc_joins *j);
/* The same on frontier square `q` (an index of frontier[]), from its entries; and on any
 * square from its side tiles, looked up (the same joins, in the same order: a test holds
 * the two together on every placement of random games). */
void cc_joins_on_frontier(const struct cc_game *g, const struct cc_tile_type *type, unsigned q,
                          unsigned rot, struct cc_joins *j);
void cc_joins_from_sides(const struct cc_game *g, const struct cc_tile_type *type, int x, int y,
                         unsigned rot, struct cc_joins *j);

/* The roots that feature `f` would be one feature with once placed (through its group),
 * into out[]; returns how many. */
static inline unsigned cc_joins_of(const struct cc_joins *j, unsigned f, uint16_t out[12])
{
    unsigned n = 0;
    for (unsigned k = 0; k < j->n; k++)
        if (j->touch[k] & j->group[f]) out[n++] = j->root[k];
    return n;
}

/* A frontier square's entry in frontier_node[]: a node beyond it, the square's side it lies
 * on, and the square's slots of that side that face it (bits 3 * side + 0..2). */
#define CC_FRONTIER_NODE_MASK 0x7FFu
_Static_assert(CC_MAX_NODES <= CC_FRONTIER_NODE_MASK + 1, "a node fits a frontier entry");
static inline uint16_t cc_frontier_entry(unsigned node, unsigned side, unsigned slots3)
{
    return (uint16_t)(node | slots3 << 11 | side << 14);
}
static inline unsigned cc_frontier_entry_slots(uint16_t e)
{
    return ((e >> 11) & 7u) << (3 * (e >> 14));
}

/* Of the engine's public interface (game.h includes this header): */

/* The placed tile at (x, y): its board index, or -1. */
int cc_board_at(const struct cc_game *g, int x, int y);

#endif
