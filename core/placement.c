/* placement.c: legal positions of a tile and the follow-ups each allows. */
#include <string.h>

#include "board.h"
#include "modules.h"
#include "placement.h"
#include "rng.h"
#include "rules.h"

enum cc_status cc_check_position(const struct cc_game *g, uint8_t type, int x, int y, unsigned rot)
{
    int cell = cc_cell_get(g, x, y);
    if (cell >= 0 && !(cell & CC_CELL_FRONTIER)) return CC_ERR_POSITION_TAKEN;
    if (cell < 0) return CC_ERR_NOT_ADJACENT;
    const struct cc_tile_type *t = &cc_types(g)[type];
    unsigned f = (unsigned)cell & ~CC_CELL_FRONTIER; /* the square's constraint, kept */
    enum cc_status edges = (t->edge_code[rot] & g->frontier_mask[f]) != g->frontier_want[f]
                               ? CC_ERR_EDGES_DO_NOT_MATCH
                               : CC_OK;
    /* A tile of an expansion with a placement rule (the River) asks its module, which
     * decides the order of the checks; every other tile is the side check alone. */
    if (cc_tile_has_position_rule(t))
        return cc_module_of_set(t->set)->check_position(g, t, x, y, rot, edges);
    return edges;
}

bool cc_feature_would_be_occupied(const struct cc_game *g, const struct cc_tile_type *t, unsigned f,
                                  int x, int y, unsigned rot)
{
    struct cc_joins j;
    cc_joins_at(g, t, x, y, rot, &j);
    for (unsigned k = 0; k < j.n; k++)
        if ((j.touch[k] & j.group[f]) && (g->holders[j.root[k]] & CC_HOLDER_FOLLOWERS)) return true;
    return false;
}

void cc_placement_followups(const struct cc_game *g, struct cc_placement *p)
{
    const struct cc_rules *rules = cc_rules_of((enum cc_ruleset)g->ruleset);
    const struct cc_tile_type *t = &cc_types(g)[p->tile];
    p->follower = 0;
    p->stable = 0;
    p->hike = 0;
    p->large = 0;
    p->builder = 0;
    p->pig = 0;
    if (rules->placement_followups) rules->placement_followups(g, p);
    cc_modules_placement_followups(g, p);
    /* A follower and the large follower (inns) go under the same rule. The figures that
     * go only where the player has a follower (traders) want the features of the tile that
     * would hold one of the seat's: both come from one pass over the pieces. */
    const struct cc_player *me = &g->players[g->seat];
    bool deploy = me->followers > 0 || me->large > 0;
    if (!deploy && !cc_modules_want_own(g)) return;
    /* Whether the features beyond the square hold a follower, and one of the seat's: the
     * index of holders, one look-up a feature. */
    /* The square's frontier index: where it was listed (p->square), if that still holds. */
    unsigned listed = p->square - 1u;
    int cell =
        listed < g->nfrontier && g->frontier[listed][0] == p->x && g->frontier[listed][1] == p->y
            ? (int)(CC_CELL_FRONTIER | listed)
            : cc_cell_get(g, p->x, p->y);
    if (cell >= 0 && (cell & CC_CELL_FRONTIER)) {
        /* A frontier square (every legal placement) keeps the distinct nodes beyond it: who
         * holds any of them, a look-up each. With none of the seat's and no follower to
         * deploy (a builder or pig in the supply: the common case with Traders & Builders)
         * the pass ends here; with no follower at all beyond, every feature of the tile
         * takes one, and the tile's groups need not be found. */
        unsigned q = (unsigned)cell & ~CC_CELL_FRONTIER, n = g->frontier_nnodes[q], any = 0;
        const uint16_t *nodes = g->frontier_node[q];
        /* The entries looked up: every one while a follower may be deployed; with none to
         * deploy, only those of the kinds the seat's figures left go on, roads and cities
         * (builder), fields (pig; frontier_rc tells the entries apart). The builder and the
         * pig are the only own_figures of any module (modules.h): a module that adds such a
         * figure adds its kinds here. */
        unsigned rc = g->frontier_rc[q];
        unsigned wanted = deploy ? ~0u : (me->builders ? rc : 0u) | (me->pigs ? ~rc : 0u);
        wanted &= (1u << n) - 1u;
        /* Most squares have at most four: those without a test each (an entry not wanted
         * looks up node 0 instead, on the board and in the cache, and is masked off). */
        for (unsigned i = 0; i < 4; i++) {
            unsigned keep = 0u - (wanted >> i & 1u);
            any |= g->holders[g->root[nodes[i] & CC_FRONTIER_NODE_MASK & keep]] & keep;
        }
        if (n > 4) { /* the next four the same way (a loop's end was mostly guessed wrong) */
            for (unsigned i = 4; i < 8; i++) {
                unsigned keep = 0u - (wanted >> i & 1u);
                any |= g->holders[g->root[nodes[i] & CC_FRONTIER_NODE_MASK & keep]] & keep;
            }
            for (unsigned i = 8; i < n; i++)
                if (wanted >> i & 1u) any |= g->holders[g->root[nodes[i] & CC_FRONTIER_NODE_MASK]];
        }
        if (!deploy && !(any >> g->seat & 1u)) return;
        if (!(any & CC_HOLDER_FOLLOWERS)) {
            uint16_t free_locs = 0;
            for (unsigned f = 0; f < t->nfeatures; f++)
                if (rules->follower_kinds & (1u << t->features[f].kind))
                    free_locs |= cc_rotate_slots(t->features[f].slots, p->rot);
            if (me->followers) p->follower = free_locs;
            if (me->large) p->large = free_locs;
            return;
        }
    }
    /* The tile's features touching a feature beyond that holds a follower (heldf), and one
     * of the seat's (minef); a feature is held when one of its group is (the segments of a
     * group are one feature once placed: struct cc_joins). */
    struct cc_joins j;
    if (cell >= 0 && (cell & CC_CELL_FRONTIER))
        cc_joins_on_frontier(g, t, (unsigned)cell & ~CC_CELL_FRONTIER, p->rot, &j);
    else
        cc_joins_at(g, t, p->x, p->y, p->rot, &j);
    unsigned heldf = 0, minef = 0;
    for (unsigned k = 0; k < j.n; k++) {
        unsigned bits = g->holders[j.root[k]];
        heldf |= j.touch[k] & (0u - (unsigned)((bits & CC_HOLDER_FOLLOWERS) != 0));
        minef |= j.touch[k] & (0u - (bits >> g->seat & 1u));
    }
    if (!deploy && !minef) return;
    uint16_t unheld = 0, own = 0; /* own: bits of the tile's features */
    for (unsigned f = 0; f < t->nfeatures; f++) {
        if (!(rules->follower_kinds & (1u << t->features[f].kind))) continue;
        if (!(j.group[f] & heldf)) unheld |= cc_rotate_slots(t->features[f].slots, p->rot);
        if (j.group[f] & minef) own |= (uint16_t)(1u << f);
    }
    if (me->followers) p->follower = unheld;
    if (me->large) p->large = unheld;
    if (own && (!deploy || cc_modules_want_own(g))) cc_modules_own_features(g, p, own, &j);
}

/* Whether `type` fits at frontier square (x, y) turned `rot`, given the square's
 * constraint: a fast path for the common case, the full check for tiles whose module has
 * a placement rule of its own (the River). */
static bool fits(const struct cc_game *g, const struct cc_tile_type *t, uint8_t type, int x, int y,
                 unsigned rot, uint16_t mask, uint16_t want)
{
    if ((t->edge_code[rot] & mask) != want) return false;
    return !cc_tile_has_position_rule(t) || cc_check_position(g, type, x, y, rot) == CC_OK;
}

/* Eight 16-bit lanes (a GCC/clang vector: SSE2 or NEON where there is one, else plain
 * code). */
typedef uint16_t lanes8 __attribute__((vector_size(16)));

/* A tile's edge codes per rotation, each in all eight lanes. */
struct codes8 {
    lanes8 r[4]; /* rotation 0..3 */
};

static void codes8(const struct cc_tile_type *t, struct codes8 *c)
{
    for (unsigned r = 0; r < 4; r++) {
        lanes8 v = {0};
        c->r[r] = v + t->edge_code[r];
    }
}

/* Which rotations fit on the eight squares whose constraints are in (m, w): 4 bits per
 * square, rotation r of square j at bit 4 * j + r. */
static uint32_t fit8(lanes8 m, lanes8 w, const struct codes8 *c)
{
    /* All ones in a lane where that rotation fits, kept as its bit of the nibble. */
    lanes8 nib = ((lanes8)((m & c->r[0]) == w) & 1) | ((lanes8)((m & c->r[1]) == w) & 2) |
                 ((lanes8)((m & c->r[2]) == w) & 4) | ((lanes8)((m & c->r[3]) == w) & 8);
    uint64_t half[2];
    memcpy(half, &nib, sizeof half);
    uint32_t out = 0;
    for (unsigned h = 0; h < 2; h++) {
        uint64_t v = half[h]; /* four squares, a nibble in the low bits of each lane */
        uint32_t packed =
            (uint32_t)((v & 0xF) | ((v >> 12) & 0xF0) | ((v >> 24) & 0xF00) | ((v >> 36) & 0xF000));
        out |= packed << (16 * h);
    }
    return out;
}

/* The constraints of frontier squares base..base+7 as lanes (zero past the frontier's
 * storage; the caller masks off squares past nfrontier). */
static void load8(const struct cc_game *g, unsigned base, lanes8 *m, lanes8 *w)
{
    if (base + 8 <= CC_MAX_FRONTIER) {
        memcpy(m, &g->frontier_mask[base], sizeof *m);
        memcpy(w, &g->frontier_want[base], sizeof *w);
        return;
    }
    uint16_t bm[8] = {0}, bw[8] = {0};
    for (unsigned j = 0; base + j < CC_MAX_FRONTIER && j < 8; j++) {
        bm[j] = g->frontier_mask[base + j];
        bw[j] = g->frontier_want[base + j];
    }
    memcpy(m, bm, sizeof *m);
    memcpy(w, bw, sizeof *w);
}

/* Which rotations of a land tile with codes `c` fit on frontier squares base..base+count-1
 * (count <= 16): 4 bits per square, rotation r of square base+j at bit 4 * j + r. */
static uint64_t block_map(const struct cc_game *g, const struct codes8 *c, unsigned base,
                          unsigned count)
{
    lanes8 m, w;
    load8(g, base, &m, &w);
    uint64_t map = fit8(m, w, c);
    if (count > 8) {
        load8(g, base + 8, &m, &w);
        map |= (uint64_t)fit8(m, w, c) << 32;
    }
    return count >= 16 ? map : map & ((1ull << (4 * count)) - 1);
}

bool cc_tile_fits_somewhere(const struct cc_game *g, uint8_t type)
{
    const struct cc_tile_type *t = &cc_types(g)[type];
    struct codes8 c;
    codes8(t, &c);
    if (cc_tile_has_position_rule(t)) {
        for (unsigned i = 0; i < g->nfrontier; i++) {
            int x = g->frontier[i][0], y = g->frontier[i][1];
            for (unsigned rot = 0; rot < 4; rot++)
                if (fits(g, t, type, x, y, rot, g->frontier_mask[i], g->frontier_want[i]))
                    return true;
        }
        return false;
    }
    for (unsigned base = 0; base < g->nfrontier; base += 16) {
        unsigned count = g->nfrontier - base < 16 ? g->nfrontier - base : 16;
        if (block_map(g, &c, base, count)) return true;
    }
    return false;
}

/* Set bits of a 64-bit word (without relying on a popcount instruction being enabled). */
static unsigned bits64(uint64_t m)
{
    m = m - ((m >> 1) & 0x5555555555555555ull);
    m = (m & 0x3333333333333333ull) + ((m >> 2) & 0x3333333333333333ull);
    m = (m + (m >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    return (unsigned)((m * 0x0101010101010101ull) >> 56);
}

/* Appends placement (rot) of `type` on frontier square i to out[] if there is room;
 * returns n + 1. */
static size_t put(const struct cc_game *g, struct cc_placement *out, size_t cap, size_t n,
                  unsigned i, unsigned rot, uint8_t type)
{
    if (n < cap)
        out[n] = (struct cc_placement){.x = g->frontier[i][0],
                                       .y = g->frontier[i][1],
                                       .rot = (uint8_t)rot,
                                       .tile = type,
                                       .square = (uint16_t)(i + 1)};
    return n + 1;
}

/* Appends the placements of tile `type` to out[n..cap); returns the new count. */
static size_t list_tile(const struct cc_game *g, uint8_t type, struct cc_placement *out, size_t cap,
                        size_t n, bool followups)
{
    const struct cc_tile_type *t = &cc_types(g)[type];
    struct codes8 c;
    codes8(t, &c);
    size_t first = n;
    if (cc_tile_has_position_rule(t)) {
        for (unsigned i = 0; i < g->nfrontier; i++) {
            int x = g->frontier[i][0], y = g->frontier[i][1];
            uint16_t mask = g->frontier_mask[i], want = g->frontier_want[i];
            for (unsigned rot = 0; rot < 4; rot++)
                if (fits(g, t, type, x, y, rot, mask, want)) n = put(g, out, cap, n, i, rot, type);
        }
    } else {
        /* Sixteen squares at a time: which rotations fit, as one 64-bit map (4 bits per
         * square, rotation order), then one step per legal placement. */
        for (unsigned base = 0; base < g->nfrontier; base += 16) {
            unsigned count = g->nfrontier - base < 16 ? g->nfrontier - base : 16;
            uint64_t map = block_map(g, &c, base, count);
            while (map) {
                unsigned bit = (unsigned)__builtin_ctzll(map);
                unsigned i = base + bit / 4;
                n = put(g, out, cap, n, i, bit % 4, type);
                map &= map - 1;
            }
        }
    }
    if (followups)
        for (size_t k = first; k < n && k < cap; k++) cc_placement_followups(g, &out[k]);
    return n;
}

size_t cc_legal_placements(const struct cc_game *g, struct cc_placement *out, size_t cap,
                           bool followups)
{
    if (g->phase != CC_PHASE_PLACE) return 0;
    if (!cc_hand_mode(g)) return list_tile(g, g->drawn, out, cap, 0, followups);
    /* Hand variant: each hand tile in hand order (a type held twice is listed once). */
    const uint8_t *hand = g->players[g->seat].hand;
    size_t n = 0;
    for (unsigned k = 0; k < CC_HAND_SIZE; k++) {
        bool again = false;
        for (unsigned j = 0; j < k; j++) again |= hand[j] == hand[k];
        if (hand[k] != CC_NO_TILE && !again) n = list_tile(g, hand[k], out, cap, n, followups);
    }
    return n;
}

/* The placements of one tile as a fit map per 16 frontier squares (see block_map), with
 * the total; tiles with a placement rule of their own (full checks) as one bit per (square,
 * rotation) in the same layout. */
struct tile_maps {
    uint64_t map[(CC_MAX_FRONTIER + 15) / 16]; /* per block of 16 squares */
    size_t n;                                  /* set bits in all of map[] */
};

static void tile_maps(const struct cc_game *g, uint8_t type, struct tile_maps *m)
{
    const struct cc_tile_type *t = &cc_types(g)[type];
    struct codes8 c;
    codes8(t, &c);
    bool ruled = cc_tile_has_position_rule(t);
    m->n = 0;
    for (unsigned base = 0, b = 0; base < g->nfrontier; base += 16, b++) {
        unsigned count = g->nfrontier - base < 16 ? g->nfrontier - base : 16;
        uint64_t map = 0;
        if (!ruled) {
            map = block_map(g, &c, base, count);
        } else {
            for (unsigned j = 0; j < count; j++) {
                unsigned i = base + j;
                for (unsigned rot = 0; rot < 4; rot++)
                    if (fits(g, t, type, g->frontier[i][0], g->frontier[i][1], rot,
                             g->frontier_mask[i], g->frontier_want[i]))
                        map |= 1ull << (4 * j + rot);
            }
        }
        m->map[b] = map;
        m->n += bits64(map);
    }
}

/* Entry k (k < m->n) of the placements of `type` described by `m`, into *out. */
static void tile_nth(const struct cc_game *g, uint8_t type, const struct tile_maps *m, size_t k,
                     struct cc_placement *out)
{
    unsigned b = 0;
    for (;; b++) {
        unsigned c = bits64(m->map[b]);
        if (k < c) break;
        k -= c;
    }
    uint64_t map = m->map[b];
    for (; k > 0; k--) map &= map - 1;
    unsigned bit = (unsigned)__builtin_ctzll(map), i = 16 * b + bit / 4;
    put(g, out, 1, 0, i, bit % 4, type);
}

size_t cc_random_placement(const struct cc_game *g, struct cc_rng *rng, struct cc_placement *out)
{
    if (g->phase != CC_PHASE_PLACE) return 0;
    struct tile_maps maps[CC_HAND_SIZE];
    uint8_t types[CC_HAND_SIZE];
    unsigned ntypes = 0;
    if (!cc_hand_mode(g)) {
        types[ntypes++] = g->drawn;
    } else {
        /* Hand variant: each hand tile in hand order (a type held twice counts once). */
        const uint8_t *hand = g->players[g->seat].hand;
        for (unsigned k = 0; k < CC_HAND_SIZE; k++) {
            bool again = false;
            for (unsigned j = 0; j < k; j++) again |= hand[j] == hand[k];
            if (hand[k] != CC_NO_TILE && !again) types[ntypes++] = hand[k];
        }
    }
    size_t n = 0;
    for (unsigned k = 0; k < ntypes; k++) {
        tile_maps(g, types[k], &maps[k]);
        n += maps[k].n;
    }
    if (n == 0 || n > UINT32_MAX) return n;
    size_t pick = cc_rng_below(rng, (uint32_t)n);
    for (unsigned k = 0; k < ntypes; k++) {
        if (pick < maps[k].n) {
            tile_nth(g, types[k], &maps[k], pick, out);
            break;
        }
        pick -= maps[k].n;
    }
    return n;
}

unsigned cc_placement_locations(const struct cc_placement *p, unsigned kind)
{
    switch (kind) {
    case CC_PIECE_FOLLOWER:
        return p->follower;
    case CC_PIECE_STABLE:
        return p->stable;
    case CC_PIECE_LARGE:
        return p->large;
    case CC_PIECE_BUILDER:
        return p->builder;
    case CC_PIECE_PIG:
        return p->pig;
    default:
        return 0;
    }
}
