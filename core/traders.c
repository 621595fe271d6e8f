/* traders.c: Traders & Builders, a module of classic (shared/rules/expansions.md).
 *
 * Its 24 tiles (set traders) are shuffled into the land. A city completed during play gives
 * its goods to the player who placed the completing tile; at the end the most tokens of each
 * kind score 10 (ties: each). Each player has a builder and a pig, deployed instead of a
 * follower on the tile just placed: the builder on a road or city holding one of the
 * player's followers that the placement does not complete, the pig on a field holding one of
 * the player's farmers. When its owner extends the builder's feature in a later turn, an
 * extra turn follows (never a third in a row); the pig makes its owner's farm score 4 per
 * city when the owner wins it. Its state: g->extra_turn (the turn is an extra turn) and
 * g->builder_due (within one placement: the builder's feature was extended).
 */

#include "board.h"
#include "hand.h"
#include "modules.h"
#include "rules.h"

/* Whether one of the features joined[0..n) holds a follower (or the large follower) of
 * `seat` (struct cc_game's holders[]). */
static bool meets(const struct cc_game *g, const uint16_t *joined, unsigned n, unsigned seat)
{
    for (unsigned i = 0; i < n; i++)
        if (g->holders[joined[i]] >> seat & 1u) return true;
    return false;
}

/* Whether the feature that feature `f` of `t` turned `rot` becomes, joining the features
 * joined[0..n) through the side tiles nb[] with the tile's features of its group `group`
 * (struct cc_joins), would have no open side: the open sides of the features it
 * joins and of the group's segments, less two for each of the group's sides that meets a
 * tile. */
static bool would_complete(const struct cc_game *g, const struct cc_tile_type *t, uint16_t group,
                           unsigned rot, const int nb[4], const uint16_t *joined, unsigned n)
{
    uint16_t slots = 0;
    for (unsigned m = group; m; m &= m - 1)
        slots |= cc_rotate_slots(t->features[__builtin_ctz(m)].slots, rot);
    slots &= CC_EDGE_SLOTS_MASK;
    unsigned met = 0; /* the slots on the sides with a tile */
    for (int s = 0; s < 4; s++) met |= (nb[s] >= 0 ? 7u : 0u) << (3 * s);
    int open = (int)cc_bits16(slots) - 2 * (int)cc_bits16(slots & met);
    for (unsigned i = 0; i < n; i++) open += g->open[joined[i]];
    return open == 0;
}

static enum cc_status traders_check_figure(const struct cc_game *g, const struct cc_action *a)
{
    const struct cc_tile_type *t = &cc_types(g)[cc_turn_tile(g, a)];
    unsigned f = t->slot_feature[a->rot][a->loc];
    unsigned kind = t->features[f].kind;
    bool builder = a->figure == CC_PIECE_BUILDER;
    if (builder ? kind != CC_KIND_ROAD && kind != CC_KIND_CITY : kind != CC_KIND_FIELD)
        return CC_ERR_NOT_ALLOWED_HERE;
    if (cc_supply_count(&g->players[a->seat], (enum cc_piece_kind)a->figure) == 0)
        return CC_ERR_NO_FIGURE_LEFT;
    struct cc_joins j;
    cc_joins_at(g, t, a->x, a->y, a->rot, &j);
    uint16_t joined[12];
    unsigned n = cc_joins_of(&j, f, joined);
    if (!meets(g, joined, n, a->seat)) return CC_ERR_NO_OWN_FOLLOWER;
    if (builder && would_complete(g, t, j.group[f], a->rot, j.nb, joined, n))
        return CC_ERR_FEATURE_COMPLETED;
    return CC_OK;
}

/* The builder on each road or city, the pig on each field, of the features `own` that would
 * hold a follower of the seat to move (placement.c), the builder unless it is completed. */
static void traders_own_features(const struct cc_game *g, struct cc_placement *p, uint16_t own,
                                 const struct cc_joins *j)
{
    const struct cc_player *me = &g->players[g->seat];
    const struct cc_tile_type *t = &cc_types(g)[p->tile];
    /* The kinds each figure left in the supply goes onto (bits of enum cc_kind). */
    unsigned pig_kinds = me->pigs ? 1u << CC_KIND_FIELD : 0u;
    unsigned builder_kinds = me->builders ? 1u << CC_KIND_ROAD | 1u << CC_KIND_CITY : 0u;
    for (unsigned m = own; m; m &= m - 1) {
        unsigned f = (unsigned)__builtin_ctz(m), kind = 1u << t->features[f].kind;
        if (!((pig_kinds | builder_kinds) & kind)) continue;
        uint16_t locs = cc_rotate_slots(t->features[f].slots, p->rot);
        if (pig_kinds & kind) {
            p->pig |= locs;
            continue;
        }
        uint16_t joined[12];
        unsigned n = cc_joins_of(j, f, joined);
        if (!would_complete(g, t, j->group[f], p->rot, j->nb, joined, n)) p->builder |= locs;
    }
}

/* A tile placed by the seat to move that joins the road or city of its builder (deployed in
 * an earlier turn: this turn's comes after) makes an extra turn due. `joined`: the holders
 * of the features it joined, so that the common case is one test of a bit. */
static void traders_placed(struct cc_game *g, unsigned tile, const struct cc_tile_type *t,
                           unsigned joined)
{
    /* Called only when some builder's feature was joined (placed_when): the seat's? */
    unsigned bit = 1u << (CC_HOLDER_BUILDER + g->seat);
    if (!(joined & bit)) return;
    /* The seat's one builder stands on the feature whose holders[] has its bit: the first of
     * the tile's features joined to it. */
    for (unsigned f = 0; f < t->nfeatures; f++) {
        if (g->holders[g->root[cc_node(tile, f)]] & bit) {
            g->builder_due = (uint8_t)(1 + f);
            return;
        }
    }
}

/* The extra turn: due, not itself an extra turn, and a tile left to draw. Its event names
 * the builder's road or city by the placed tile's segment that extended it (the builder
 * may have gone back already, when the placement completed the feature). */
static bool turn_again_due(struct cc_game *g, struct cc_events *ev)
{
    bool again = !g->extra_turn && g->deck_pos < g->deck_len;
    unsigned f = g->builder_due - 1u, tile = g->nboard - 1u;
    g->builder_due = 0;
    g->extra_turn = again;
    struct cc_event *e = again ? cc_emit(ev, CC_EV_EXTRA_TURN) : NULL;
    if (e) {
        e->seat = g->seat;
        e->x = g->board[tile].x;
        e->y = g->board[tile].y;
        e->loc = cc_node_location(g, cc_node(tile, f));
        e->kind = cc_placed_type(g, tile)->features[f].kind;
    }
    return again;
}

/* Called while an extra turn is due or running (modules.h). */
static bool traders_turn_again(struct cc_game *g, struct cc_events *ev)
{
    if (g->builder_due) return turn_again_due(g, ev);
    g->extra_turn = 0; /* the extra turn was this one */
    return false;
}

/* A city completed during play: its goods go to the placing seat, whoever holds the city. */
static void traders_completed(struct cc_game *g, uint16_t root, enum cc_kind kind,
                              const struct cc_feature_sum *sum, struct cc_events *ev)
{
    if (kind != CC_KIND_CITY) return;
    const uint8_t *goods = sum->goods;
    unsigned total = 0;
    for (int k = 0; k < CC_GOODS_COUNT; k++) total += goods[k];
    if (total == 0) return;
    struct cc_player *p = &g->players[g->seat];
    for (int k = 0; k < CC_GOODS_COUNT; k++) p->goods[k] = (uint8_t)(p->goods[k] + goods[k]);
    struct cc_event *e = cc_emit(ev, CC_EV_GOODS_TAKEN);
    if (!e) return;
    e->seat = g->seat;
    e->x = g->board[cc_node_tile(root)].x;
    e->y = g->board[cc_node_tile(root)].y;
    e->loc = cc_node_location(g, root);
    e->kind = CC_KIND_CITY;
    e->count = (uint16_t)total;
    for (int k = 0; k < CC_GOODS_COUNT; k++) e->goods[k] = goods[k];
}

/* Per kind of goods, the seats holding the most (at least one) score 10 each. */
static void traders_final_scoring(const struct cc_game *g, struct cc_player *players,
                                  struct cc_events *ev)
{
    for (int k = 0; k < CC_GOODS_COUNT; k++) {
        unsigned best = 0, seats = 0;
        for (unsigned s = 0; s < g->nplayers; s++) {
            unsigned held = players[s].goods[k];
            if (held > best) {
                best = held;
                seats = 0;
            }
            if (held == best && best > 0) seats |= 1u << s;
        }
        if (seats == 0) continue;
        cc_award(players, seats, 10, CC_COL_GOODS);
        struct cc_event *e = cc_emit(ev, CC_EV_FINAL_SCORED);
        if (!e) continue;
        e->kind = CC_KIND_CITY;
        e->column = CC_COL_GOODS;
        e->seats = (uint8_t)seats;
        e->points = 10;
        e->count = (uint16_t)best;
        e->goods[k] = (uint8_t)best;
    }
}

/* The winners of farm `field` whose pig stands in it. */
static unsigned traders_farm_boost(const struct cc_game *g, uint16_t field, unsigned winners)
{
    /* Only a winner whose pig is on the board (none left in the supply) may have it here. */
    for (unsigned s = 0; s < g->nplayers; s++)
        if (g->players[s].pigs) winners &= ~(1u << s);
    unsigned seats = 0;
    /* A seat has one pig (cc_figures_at_start()): the pass ends once each of those
     * winners' was seen. */
    for (int i = 0; winners && i < cc_pieces_end(g); i++) {
        const struct cc_piece *pc = &g->pieces[i];
        if (!pc->used || pc->kind != CC_PIECE_PIG || !(winners >> pc->seat & 1u)) continue;
        if (g->root[cc_node(pc->tile, pc->feature)] == field) seats |= 1u << pc->seat;
        winners &= ~(1u << pc->seat);
    }
    return seats;
}

const struct cc_module cc_traders_module = {
    .name = "traders",
    .set = CC_SET_TRADERS,
    .option = CC_OPT_EXPANSIONS,
    .on_mask = CC_EXP_TRADERS,
    .tile_refused = CC_ERR_TILE_NOT_IN_GAME,
    .figures = 1u << CC_PIECE_BUILDER | 1u << CC_PIECE_PIG,
    .max_players = CC_MAX_PLAYERS,
    .columns = 1u << CC_COL_GOODS,
    .placed = traders_placed,
    .placed_when = ((1u << CC_MAX_PLAYERS) - 1u) << CC_HOLDER_BUILDER,
    .check_figure = traders_check_figure,
    .completed = traders_completed,
    .turn_again = traders_turn_again,
    .farm_boost = traders_farm_boost,
    .own_figures = 1u << CC_PIECE_BUILDER | 1u << CC_PIECE_PIG,
    .own_features = traders_own_features,
    .final_scoring = traders_final_scoring,
};
