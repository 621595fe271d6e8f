/* score_discovery.c: what Carcassonne: The Discovery scores: nothing when a region is
 * completed; a follower taken back (withdrawn) scores its region; at the end every follower
 * still on the board scores its region as if it were not complete. */
#include <string.h>

#include "board.h"
#include "rules.h"

/* What a region is worth to one follower standing in it. */
struct region_value {
    unsigned kind;   /* enum cc_kind: mountain, grassland or sea */
    unsigned column; /* enum cc_column the points go to */
    unsigned tiles;  /* distinct tiles of the region */
    unsigned cities; /* mountain: its cities and its grasslands'; sea: on its shore; else 0 */
    int points;      /* the value */
};

/*
 * The cities of the mountain `root`: the port cities on the mountain itself, and those of
 * every grassland that borders it. A grassland borders the mountain when the two share a
 * tile (on every tile of the catalogue they meet there); each grassland counts once per
 * mountain, however many tiles they share.
 */
static unsigned mountain_cities(const struct cc_game *g, uint16_t root)
{
    uint64_t seen[(CC_MAX_NODES + 63) / 64];
    memset(seen, 0, sizeof seen);
    unsigned cities = 0;
    uint16_t n = root;
    do {
        unsigned tile = cc_node_tile(n);
        const struct cc_tile_type *t = cc_placed_type(g, tile);
        cities += t->features[cc_node_feature(n)].ports;
        for (unsigned f = 0; f < t->nfeatures; f++) {
            if (t->features[f].kind != CC_KIND_GRASS) continue;
            uint16_t r = g->root[cc_node(tile, f)];
            if (seen[r / 64] & (1ull << (r % 64))) continue;
            seen[r / 64] |= 1ull << (r % 64);
            cities += cc_feature_ports(g, r);
        }
        n = g->next[n];
    } while (n != root);
    return cities;
}

/*
 * The value of the region `root` of kind `kind` to a follower in it. `final`: the end of
 * the game, where every region scores as if not complete. A complete region of exactly two
 * tiles also scores as if not complete (the rules' two-tile exception):
 *   grassland: 1 per tile; complete 2 per tile
 *   mountain:  1 per city; complete 2 per city
 *   sea:       1 per city on its shore; complete those cities + 1 per tile
 */
static void region_value(const struct cc_game *g, uint16_t root, unsigned kind, bool final,
                         struct region_value *v)
{
    v->kind = kind;
    v->tiles = cc_feature_tiles(g, root);
    v->cities = 0;
    bool full = !final && g->open[root] == 0 && v->tiles != 2;
    switch (kind) {
    case CC_KIND_GRASS:
        v->column = CC_COL_GRASSLAND;
        v->points = (int)(full ? 2 * v->tiles : v->tiles);
        break;
    case CC_KIND_MOUNTAIN:
        v->column = CC_COL_MOUNTAIN;
        v->cities = mountain_cities(g, root);
        v->points = (int)(full ? 2 * v->cities : v->cities);
        break;
    default: /* CC_KIND_SEA */
        v->column = CC_COL_SEA;
        v->cities = cc_feature_ports(g, root);
        v->points = (int)(full ? v->cities + v->tiles : v->cities);
        break;
    }
}

void cc_discovery_score_placement(struct cc_game *g, unsigned tile, struct cc_events *ev)
{
    /* Nothing scores by itself: a region is cashed in only by withdrawing a follower. */
    (void)g;
    (void)tile;
    (void)ev;
}

/*
 * The follower that a withdrawal names: on the tile at (fx, fy), on the segment holding
 * location `loc`, owned by the acting seat. Its index in *piece on success.
 */
static enum cc_status find_withdrawal(const struct cc_game *g, const struct cc_action *a,
                                      int *piece)
{
    if (a->loc >= CC_LOC_COUNT) return CC_ERR_BAD_LOCATION;
    unsigned tile;
    if (!cc_square_tile(g, a->fx, a->fy, &tile)) return CC_ERR_NO_FOLLOWER_THERE;
    unsigned f = cc_placed_type(g, tile)->slot_feature[g->board[tile].rot][a->loc];
    if (f == CC_NO_FEATURE) return CC_ERR_NO_FOLLOWER_THERE;
    bool others = false;
    for (int i = 0; i < CC_MAX_PIECES; i++) {
        const struct cc_piece *pc = &g->pieces[i];
        if (!pc->used || pc->kind != CC_PIECE_FOLLOWER || pc->tile != tile || pc->feature != f)
            continue;
        if (pc->seat == a->seat) {
            *piece = i;
            return CC_OK;
        }
        others = true;
    }
    return others ? CC_ERR_NOT_YOUR_FOLLOWER : CC_ERR_NO_FOLLOWER_THERE;
}

enum cc_status cc_discovery_check_followup(const struct cc_game *g, const struct cc_action *a)
{
    if (a->follow != CC_FOLLOW_WITHDRAW) return CC_ERR_FOLLOWUP_NOT_IN_RULESET;
    int piece;
    return find_withdrawal(g, a, &piece);
}

/*
 * The withdrawal, after the turn's tile is placed: the follower scores its region as the
 * placement left it, for its owner alone (no majorities), and goes back to the supply.
 * Doubt: the rules say "it scores its region now" in the step after "draw and place", so a
 * region that this turn's tile joins or completes is scored joined or complete. The
 * follower is named by its square and any location of the segment it stands on.
 *
 * The CC_EV_FOLLOWER_WITHDRAWN event: seat = the owner (the acting seat); seats = that
 * seat's bit; x, y = the square of the tile the follower stood on; tile = that tile's type;
 * loc = the follower's location as deployed (a location of the same segment as the one the
 * action named); kind = the region's enum cc_kind; column = the scoreboard column
 * (grassland, mountain, sea); points = what it scored (may be 0); tiles = distinct tiles of
 * the region; count = the region's cities (mountain: its own port cities and those of the
 * grasslands bordering it; sea: the port cities on its shore; grassland: 0).
 */
void cc_discovery_apply_followup(struct cc_game *g, unsigned tile, const struct cc_action *a,
                                 bool after_scoring, struct cc_events *ev)
{
    (void)tile;
    if (!after_scoring || a->follow != CC_FOLLOW_WITHDRAW) return;
    int i;
    if (find_withdrawal(g, a, &i) != CC_OK) return; /* checked before: cannot happen */
    struct cc_piece *pc = &g->pieces[i];
    const struct cc_tile_type *t = cc_placed_type(g, pc->tile);
    uint16_t root = g->root[cc_node(pc->tile, pc->feature)];
    struct region_value v;
    region_value(g, root, t->features[pc->feature].kind, false, &v);
    cc_award(g->players, 1u << pc->seat, v.points, (enum cc_column)v.column);
    struct cc_event *e =
        cc_emit_score(ev, CC_EV_FOLLOWER_WITHDRAWN, g, pc->tile, pc->loc, (enum cc_kind)v.kind,
                      (enum cc_column)v.column, 1u << pc->seat, v.points, v.tiles, v.cities);
    if (e) {
        e->seat = pc->seat;
        e->tile = g->board[pc->tile].type;
    }
    g->players[pc->seat].followers++;
    cc_piece_remove(g, pc);
}

/*
 * Every follower still on the board scores its region as if not complete, for its owner;
 * one CC_EV_FINAL_SCORED per follower, in piece order: seat = CC_NO_SEAT, seats = the
 * owner's bit, x, y and loc = where the follower stands, kind, column, points, tiles and
 * count (cities) as for a withdrawal.
 */
void cc_discovery_final_scoring(const struct cc_game *g, struct cc_player *players,
                                struct cc_events *ev)
{
    for (int i = 0; i < CC_MAX_PIECES; i++) {
        const struct cc_piece *pc = &g->pieces[i];
        if (!pc->used || pc->kind != CC_PIECE_FOLLOWER) continue;
        const struct cc_tile_type *t = cc_placed_type(g, pc->tile);
        struct region_value v;
        region_value(g, g->root[cc_node(pc->tile, pc->feature)], t->features[pc->feature].kind,
                     true, &v);
        cc_award(players, 1u << pc->seat, v.points, (enum cc_column)v.column);
        cc_emit_score(ev, CC_EV_FINAL_SCORED, g, pc->tile, pc->loc, (enum cc_kind)v.kind,
                      (enum cc_column)v.column, 1u << pc->seat, v.points, v.tiles, v.cities);
    }
}
