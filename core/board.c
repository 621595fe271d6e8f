/* board.c: squares (a hash of coordinates), the frontier and the feature graph. */
#include <string.h>

#include "board.h"

_Static_assert(CC_MAX_BOARD + CC_MAX_FRONTIER < CC_CELL_TABLE, "square table too small");
_Static_assert(CC_MAX_NODES < 0xFFFF, "nodes must fit 16 bits");
_Static_assert(CC_MAX_BOARD <= 256, "tile indices are stored in one byte");

/* The squares' hash (FAR, in_reach, cell_key, cell_slot) is inline in board.h: looking a
 * square up is on the engine's hottest paths. */
#define FAR               CC_FAR
#define in_reach(x, y)    cc_in_reach(x, y)
#define cell_key(x, y)    cc_cell_key(x, y)
#define cell_slot(g, key) cc_cell_slot(g, key)

#define bits16 cc_bits16

int cc_board_at(const struct cc_game *g, int x, int y)
{
    unsigned t;
    return cc_square_tile(g, x, y, &t) ? (int)t : -1;
}

int cc_square_constraint(const struct cc_game *g, int x, int y, uint16_t *mask, uint16_t *want)
{
    int v = cc_cell_get(g, x, y);
    if (v >= 0 && (v & CC_CELL_FRONTIER)) {
        unsigned i = (unsigned)v & ~CC_CELL_FRONTIER;
        *mask = g->frontier_mask[i];
        *want = g->frontier_want[i];
        return (int)bits16(*mask) / 4;
    }
    int n = 0;
    *mask = 0;
    *want = 0;
    for (int s = 0; s < 4; s++) {
        unsigned nb;
        if (!cc_square_tile(g, x + cc_side_dx[s], y + cc_side_dy[s], &nb)) continue;
        const struct cc_placed *p = &g->board[nb];
        unsigned facing = (unsigned)(s + 2) & 3;
        unsigned kind = (cc_placed_type(g, nb)->edge_code[p->rot] >> (4 * facing)) & 0xF;
        *mask |= (uint16_t)(0xFu << (4 * s));
        *want |= (uint16_t)(kind << (4 * s));
        n++;
    }
    return n;
}

void cc_board_clear(struct cc_game *g)
{
    g->nboard = 0;
    g->nfrontier = 0;
    memset(g->board, 0, sizeof g->board);
    memset(g->cell_key, 0, sizeof g->cell_key);
    memset(g->cell_val, 0, sizeof g->cell_val);
    memset(g->frontier, 0, sizeof g->frontier);
    memset(g->frontier_mask, 0, sizeof g->frontier_mask);
    memset(g->frontier_want, 0, sizeof g->frontier_want);
    memset(g->frontier_nb, 0, sizeof g->frontier_nb);
    memset(g->frontier_node, 0, sizeof g->frontier_node);
    memset(g->frontier_nnodes, 0, sizeof g->frontier_nnodes);
    memset(g->frontier_rc, 0, sizeof g->frontier_rc);
    memset(g->last_surrounded, 0, sizeof g->last_surrounded);
    g->nlast_surrounded = 0;
    memset(g->root, 0, sizeof g->root);
    memset(g->next, 0, sizeof g->next);
    memset(g->size, 0, sizeof g->size);
    memset(g->open, 0, sizeof g->open);
    memset(g->holders, 0, sizeof g->holders);
}

/* Records that the empty square (x, y) has placed tile `tile` on its side `side`, whose
 * facing edge is `edge` and whose segments along it are the slots of `sf` (the tile's
 * slot_feature[rot]) on the tile's side opposite, making it a frontier square if it was not
 * one. `hint` is a slot looked up for the square earlier (still right if the square was
 * stored then). */
static void frontier_touch(struct cc_game *g, int x, int y, unsigned side, unsigned edge,
                           unsigned tile, const uint8_t *sf, unsigned hint)
{
    uint32_t key = cell_key(x, y);
    unsigned i = g->cell_key[hint] == key ? hint : cell_slot(g, key);
    unsigned f;
    if (g->cell_key[i] == key) {
        f = g->cell_val[i] & ~CC_CELL_FRONTIER;
    } else {
        f = g->nfrontier++;
        g->cell_key[i] = key;
        g->cell_val[i] = (uint16_t)(CC_CELL_FRONTIER | f);
        g->frontier[f][0] = (int16_t)x;
        g->frontier[f][1] = (int16_t)y;
        memset(g->frontier_nb[f], CC_NO_SIDE_TILE, sizeof g->frontier_nb[f]);
    }
    g->frontier_mask[f] |= (uint16_t)(0xFu << (4 * side));
    g->frontier_want[f] |= (uint16_t)(edge << (4 * side));
    g->frontier_nb[f][side] = (uint8_t)tile;
    /* The tile's segments along its side facing the square, each node once with the square's
     * slots that face it (the other sides' nodes are other tiles'): the square's slot
     * 3 * side + k faces the tile's slot 3 * facing + 2 - k. No branch, and 0 past the last
     * entry, as at the start. */
    unsigned facing = (side + 2) & 3, n = g->frontier_nnodes[f];
    uint16_t *nodes = g->frontier_node[f];
    unsigned a = cc_node(tile, sf[3 * facing + 2]), b = cc_node(tile, sf[3 * facing + 1]),
             c = cc_node(tile, sf[3 * facing]);
    bool new_b = b != a, new_c = c != a && c != b;
    nodes[n] = cc_frontier_entry(a, side, 1u | (unsigned)(b == a) << 1 | (unsigned)(c == a) << 2);
    nodes[n + 1] = new_b ? cc_frontier_entry(b, side, 2u | (unsigned)(c == b) << 2) : 0;
    /* Road or city: every node of a city side; of a road side, the middle slot's (b; the
     * corners are fields, a river side's middle is neither). */
    unsigned city = edge == CC_EDGE_CITY, road = edge == CC_EDGE_ROAD;
    unsigned rc = city << n | ((city | road) & (unsigned)new_b) << (n + 1);
    n += 1u + new_b;
    nodes[n] = new_c ? cc_frontier_entry(c, side, 4u) : 0;
    rc |= (city & (unsigned)new_c) << n;
    g->frontier_rc[f] |= (uint16_t)rc;
    g->frontier_nnodes[f] = (uint8_t)(n + new_c);
}

/* Marks (x, y) as holding `tile`, taking it off the frontier (swap with the last). */
static void square_fill(struct cc_game *g, int x, int y, unsigned tile)
{
    uint32_t key = cell_key(x, y);
    unsigned i = cell_slot(g, key);
    if (g->cell_key[i] == key && (g->cell_val[i] & CC_CELL_FRONTIER)) {
        unsigned idx = g->cell_val[i] & ~CC_CELL_FRONTIER;
        unsigned last = (unsigned)g->nfrontier - 1;
        if (idx != last) {
            int lx = g->frontier[last][0], ly = g->frontier[last][1];
            g->frontier[idx][0] = (int16_t)lx;
            g->frontier[idx][1] = (int16_t)ly;
            g->frontier_mask[idx] = g->frontier_mask[last];
            g->frontier_want[idx] = g->frontier_want[last];
            memcpy(g->frontier_nb[idx], g->frontier_nb[last], sizeof g->frontier_nb[idx]);
            memcpy(g->frontier_node[idx], g->frontier_node[last], sizeof g->frontier_node[idx]);
            g->frontier_nnodes[idx] = g->frontier_nnodes[last];
            g->frontier_rc[idx] = g->frontier_rc[last];
            g->cell_val[cell_slot(g, cell_key(lx, ly))] = (uint16_t)(CC_CELL_FRONTIER | idx);
        }
        g->frontier[last][0] = g->frontier[last][1] = 0;
        g->frontier_mask[last] = g->frontier_want[last] = 0;
        memset(g->frontier_nb[last], 0, sizeof g->frontier_nb[last]);
        memset(g->frontier_node[last], 0, sizeof g->frontier_node[last]);
        g->frontier_nnodes[last] = 0;
        g->frontier_rc[last] = 0;
        g->nfrontier--;
    }
    g->cell_key[i] = key;
    g->cell_val[i] = (uint16_t)tile;
}

/* Joins the features of nodes a and b (union by size, members relabelled): returns the
 * root. Deterministic: on equal sizes a's root stays. */
static uint16_t join(struct cc_game *g, uint16_t a, uint16_t b)
{
    uint16_t ra = g->root[a], rb = g->root[b];
    if (ra == rb) return ra;
    if (g->size[ra] < g->size[rb]) {
        uint16_t t = ra;
        ra = rb;
        rb = t;
    }
    uint16_t n = rb;
    do {
        g->root[n] = ra;
        n = g->next[n];
    } while (n != rb);
    uint16_t t = g->next[ra];
    g->next[ra] = g->next[rb];
    g->next[rb] = t;
    g->size[ra] = (uint16_t)(g->size[ra] + g->size[rb]);
    g->open[ra] = (int16_t)(g->open[ra] + g->open[rb]);
    g->holders[ra] |= g->holders[rb]; /* the joined feature holds what both held */
    g->size[rb] = 0;
    g->open[rb] = 0;
    g->holders[rb] = 0;
    return ra;
}

/* The eight squares around a square, clockwise from NW; the sides N, E, S, W are the odd
 * entries (side s at 2 * s + 1). */
static const int8_t ring_dx[8] = {-1, 0, 1, 1, 1, 0, -1, -1};
static const int8_t ring_dy[8] = {-1, -1, -1, 0, 1, 1, 1, 0};

unsigned cc_board_place(struct cc_game *g, uint8_t type, int x, int y, uint8_t rot,
                        uint16_t *joined)
{
    const struct cc_tile_type *t = &cc_types(g)[type];
    unsigned ti = g->nboard++;
    struct cc_placed *p = &g->board[ti];
    p->x = (int16_t)x;
    p->y = (int16_t)y;
    p->type = type;
    p->rot = rot;
    p->neighbours = 0;
    square_fill(g, x, y, ti);

    for (unsigned f = 0; f < t->nfeatures; f++) {
        uint16_t n = cc_node(ti, f);
        g->root[n] = n;
        g->next[n] = n;
        g->size[n] = 1;
        g->open[n] = (int16_t)bits16(t->features[f].slots & CC_EDGE_SLOTS_MASK);
        g->holders[n] = 0;
    }
    unsigned held = 0; /* the holders of the features joined */
    /* Each square around looked up once: its slot, and the tile on it or -1. */
    unsigned slot[8];
    int tile_at[8];
    for (unsigned k = 0; k < 8; k++) {
        int nx = x + ring_dx[k], ny = y + ring_dy[k];
        tile_at[k] = -1;
        slot[k] = 0;
        if (!in_reach(nx, ny)) continue;
        uint32_t key = cell_key(nx, ny);
        slot[k] = cell_slot(g, key);
        if (g->cell_key[slot[k]] == key && !(g->cell_val[slot[k]] & CC_CELL_FRONTIER))
            tile_at[k] = g->cell_val[slot[k]];
    }
    for (int s = 0; s < 4; s++) {
        int nx = x + cc_side_dx[s], ny = y + cc_side_dy[s];
        if (tile_at[2 * s + 1] < 0) {
            unsigned edge = (t->edge_code[rot] >> (4 * s)) & 0xF;
            frontier_touch(g, nx, ny, (unsigned)(s + 2) & 3, edge, ti, t->slot_feature[rot],
                           slot[2 * s + 1]);
            continue;
        }
        unsigned nb = (unsigned)tile_at[2 * s + 1];
        const struct cc_placed *q = &g->board[nb];
        const struct cc_tile_type *qt = cc_placed_type(g, nb);
        unsigned facing = (unsigned)(s + 2) & 3;
        for (unsigned k = 0; k < 3; k++) {
            unsigned mine = t->slot_feature[rot][3 * s + k];
            unsigned theirs = qt->slot_feature[q->rot][3 * facing + 2 - k];
            uint16_t r = join(g, cc_node(ti, mine), cc_node(nb, theirs));
            g->open[r] = (int16_t)(g->open[r] - 2);
            held |= g->holders[r];
        }
    }
    if (joined) *joined = (uint16_t)held;
    uint8_t ring_surrounded[8];
    unsigned nring = 0;
    for (unsigned k = 0; k < 8; k++) {
        if (tile_at[k] < 0) continue;
        p->neighbours++;
        if (++g->board[tile_at[k]].neighbours == 8) ring_surrounded[nring++] = (uint8_t)tile_at[k];
    }
    unsigned n = 0;
    if (p->neighbours == 8) g->last_surrounded[n++] = (uint8_t)ti;
    for (unsigned k = 0; k < nring; k++) g->last_surrounded[n++] = ring_surrounded[k];
    g->nlast_surrounded = (uint8_t)n;
    return ti;
}

void cc_holders_refresh(struct cc_game *g, uint16_t root)
{
    uint16_t bits = 0;
    for (int i = 0; i < cc_pieces_end(g); i++) {
        const struct cc_piece *pc = &g->pieces[i];
        if (pc->used && g->root[cc_node(pc->tile, pc->feature)] == root) bits |= cc_holder_bit(pc);
    }
    g->holders[root] = bits;
}

void cc_holders_rebuild(struct cc_game *g)
{
    memset(g->holders, 0, sizeof g->holders);
    for (int i = 0; i < cc_pieces_end(g); i++) {
        const struct cc_piece *pc = &g->pieces[i];
        /* A decoded game's pieces are checked after this (cc_game_check()): stay in bounds. */
        if (!pc->used || pc->tile >= g->nboard || pc->feature >= CC_MAX_TILE_FEATURES ||
            pc->seat >= CC_MAX_PLAYERS)
            continue;
        g->holders[g->root[cc_node(pc->tile, pc->feature)]] |= cc_holder_bit(pc);
    }
}

unsigned cc_feature_tiles(const struct cc_game *g, uint16_t root)
{
    uint64_t seen[(CC_MAX_BOARD + 63) / 64] = {0};
    unsigned count = 0;
    uint16_t n = root;
    do {
        unsigned t = cc_node_tile(n);
        if (!(seen[t / 64] & (1ull << (t % 64)))) {
            seen[t / 64] |= 1ull << (t % 64);
            count++;
        }
        n = g->next[n];
    } while (n != root);
    return count;
}

void cc_feature_sum(const struct cc_game *g, uint16_t root, struct cc_feature_sum *out)
{
    uint64_t seen[(CC_MAX_BOARD + 63) / 64] = {0};
    unsigned tiles = 0, pennants = 0, inn = 0, cathedral = 0;
    unsigned goods[CC_GOODS_COUNT] = {0};
    uint16_t n = root;
    do {
        unsigned t = cc_node_tile(n);
        uint64_t bit = 1ull << (t % 64);
        tiles += !(seen[t / 64] & bit);
        seen[t / 64] |= bit;
        const struct cc_feature_type *f = &cc_placed_type(g, t)->features[cc_node_feature(n)];
        pennants += f->pennants;
        inn |= f->inn;
        cathedral |= f->cathedral;
        for (int k = 0; k < CC_GOODS_COUNT; k++) goods[k] += f->goods[k];
        n = g->next[n];
    } while (n != root);
    out->tiles = tiles;
    out->pennants = pennants;
    out->inn = inn != 0;
    out->cathedral = cathedral != 0;
    for (int k = 0; k < CC_GOODS_COUNT; k++) out->goods[k] = (uint8_t)goods[k];
}

/* Sum over the segments of the feature with root `root` of their pennants, or (`ports` 1)
 * of their port cities. */
static unsigned feature_sum(const struct cc_game *g, uint16_t root, int ports)
{
    unsigned sum = 0;
    uint16_t n = root;
    do {
        const struct cc_feature_type *f =
            &cc_placed_type(g, cc_node_tile(n))->features[cc_node_feature(n)];
        sum += ports ? f->ports : f->pennants;
        n = g->next[n];
    } while (n != root);
    return sum;
}

unsigned cc_feature_pennants(const struct cc_game *g, uint16_t root)
{
    return feature_sum(g, root, 0);
}

unsigned cc_feature_ports(const struct cc_game *g, uint16_t root)
{
    return feature_sum(g, root, 1);
}

/* The side tiles frontier square `q` keeps (frontier_nb[]), -1 where none. */
static void frontier_side_tiles(const struct cc_game *g, unsigned q, int nb[4])
{
    for (int s = 0; s < 4; s++)
        nb[s] = g->frontier_nb[q][s] == CC_NO_SIDE_TILE ? -1 : (int)g->frontier_nb[q][s];
}

void cc_side_tiles(const struct cc_game *g, int x, int y, int nb[4])
{
    /* A frontier square (where placements are weighed) keeps its side tiles: one look-up. */
    int v = cc_cell_get(g, x, y);
    if (v >= 0 && (v & CC_CELL_FRONTIER)) {
        frontier_side_tiles(g, (unsigned)v & ~CC_CELL_FRONTIER, nb);
        return;
    }
    for (int s = 0; s < 4; s++) {
        unsigned t;
        nb[s] = cc_square_tile(g, x + cc_side_dx[s], y + cc_side_dy[s], &t) ? (int)t : -1;
    }
}

/* Adds `slots` (the square's) facing a feature of root `root` to j's distinct roots, whose
 * slots so far are slots[]. */
static void joins_add(struct cc_joins *j, uint16_t slots[12], uint16_t root, unsigned slots_of)
{
    for (unsigned k = 0; k < j->n; k++) {
        if (j->root[k] == root) {
            slots[k] = (uint16_t)(slots[k] | slots_of);
            return;
        }
    }
    j->root[j->n] = root;
    slots[j->n++] = (uint16_t)slots_of;
}

/* Each root's touching features, from the slots facing it; features touching one root are
 * one group. */
static void joins_groups(const struct cc_tile_type *type, unsigned rot, const uint16_t slots[12],
                         struct cc_joins *j)
{
    const uint8_t *sf = type->slot_feature[rot];
    for (unsigned f = 0; f < type->nfeatures; f++) j->group[f] = (uint16_t)(1u << f);
    for (unsigned k = 0; k < j->n; k++) {
        unsigned touch = 0;
        for (unsigned m = slots[k]; m; m &= m - 1) touch |= 1u << sf[__builtin_ctz(m)];
        j->touch[k] = (uint16_t)touch;
        if (!(touch & (touch - 1))) continue; /* one feature: nothing joins */
        unsigned joined = 0;
        for (unsigned m = touch; m; m &= m - 1) joined |= j->group[__builtin_ctz(m)];
        for (unsigned m = joined; m; m &= m - 1) j->group[__builtin_ctz(m)] = (uint16_t)joined;
    }
}

void cc_joins_on_frontier(const struct cc_game *g, const struct cc_tile_type *type, unsigned q,
                          unsigned rot, struct cc_joins *j)
{
    uint16_t slots[12]; /* per distinct root: the square's slots facing it */
    j->n = 0;
    frontier_side_tiles(g, q, j->nb);
    for (unsigned i = 0; i < g->frontier_nnodes[q]; i++) {
        uint16_t e = g->frontier_node[q][i];
        joins_add(j, slots, g->root[e & CC_FRONTIER_NODE_MASK], cc_frontier_entry_slots(e));
    }
    joins_groups(type, rot, slots, j);
}

void cc_joins_from_sides(const struct cc_game *g, const struct cc_tile_type *type, int x, int y,
                         unsigned rot, struct cc_joins *j)
{
    uint16_t slots[12];
    j->n = 0;
    cc_side_tiles(g, x, y, j->nb);
    for (unsigned side = 0; side < 4; side++) {
        if (j->nb[side] < 0) continue;
        unsigned nb = (unsigned)j->nb[side], facing = (side + 2) & 3;
        const uint8_t *qf = cc_placed_type(g, nb)->slot_feature[g->board[nb].rot];
        for (unsigned k = 0; k < 3; k++)
            joins_add(j, slots, g->root[cc_node(nb, qf[3 * facing + 2 - k])], 1u << (3 * side + k));
    }
    joins_groups(type, rot, slots, j);
}

void cc_joins_at(const struct cc_game *g, const struct cc_tile_type *type, int x, int y,
                 unsigned rot, struct cc_joins *j)
{
    int v = cc_cell_get(g, x, y);
    if (v >= 0 && (v & CC_CELL_FRONTIER))
        cc_joins_on_frontier(g, type, (unsigned)v & ~CC_CELL_FRONTIER, rot, j);
    else
        cc_joins_from_sides(g, type, x, y, rot, j);
}

/* Rebuilds the board of `g` from board[0..nboard) in order: every tile but the first
 * must lie next to the tiles before it with matching sides. */
bool cc_board_rebuild(struct cc_game *g)
{
    struct cc_placed placed[CC_MAX_BOARD];
    unsigned n = g->nboard;
    const struct cc_tileset *ts = cc_tileset_get((enum cc_ruleset)g->ruleset);
    if (!ts || n == 0 || n > CC_MAX_BOARD) return false;
    memcpy(placed, g->board, sizeof placed);
    cc_board_clear(g);
    for (unsigned i = 0; i < n; i++) {
        const struct cc_placed *p = &placed[i];
        if (p->type >= ts->ntypes || p->rot > 3) return false;
        if (i == 0) {
            if (p->x != 0 || p->y != 0 || p->rot != 0) return false;
        } else {
            int cell = cc_cell_get(g, p->x, p->y);
            if (cell < 0 || !(cell & CC_CELL_FRONTIER)) return false;
            uint16_t mask, want;
            cc_square_constraint(g, p->x, p->y, &mask, &want);
            if ((ts->types[p->type].edge_code[p->rot] & mask) != want) return false;
        }
        cc_board_place(g, p->type, p->x, p->y, p->rot, NULL);
    }
    cc_holders_rebuild(g); /* the pieces stand on the rebuilt graph's features */
    return true;
}
