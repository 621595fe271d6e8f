/* score_classic.c: what classic Carcassonne scores, during the game and at the end. */
#include <string.h>

#include "board.h"
#include "modules.h"
#include "rules.h"

#define MAX_CITIES (2 * CC_MAX_BOARD) /* completed cities: at most two per tile */

static int city_points_completed(const struct cc_game *g, unsigned tiles, unsigned pennants)
{
    /* The first edition's exception: a completed city of exactly two tiles is small. */
    if (g->options.edition == CC_EDITION_ORIGINAL && tiles == 2) return (int)(2 + pennants);
    return (int)(2 * tiles + 2 * pennants);
}

static bool monastery_of(const struct cc_game *g, unsigned tile, unsigned *feature)
{
    const struct cc_tile_type *t = cc_placed_type(g, tile);
    unsigned f = t->slot_feature[0][CC_LOC_C];
    if (f == CC_NO_FEATURE || t->features[f].kind != CC_KIND_MONASTERY) return false;
    *feature = f;
    return true;
}

void cc_classic_score_placement(struct cc_game *g, unsigned tile, struct cc_events *ev)
{
    uint16_t done[CC_MAX_TILE_FEATURES];
    unsigned ndone = cc_completed_on_tile(g, tile, 1u << CC_KIND_ROAD | 1u << CC_KIND_CITY, done);
    for (unsigned i = 0; i < ndone; i++) {
        uint16_t r = done[i];
        struct cc_feature_sum sum;
        cc_feature_sum(g, r, &sum);
        if (cc_placed_type(g, cc_node_tile(r))->features[cc_node_feature(r)].kind == CC_KIND_ROAD) {
            int points = cc_modules_feature_value(g, &sum, CC_KIND_ROAD, false, (int)sum.tiles);
            cc_score_completed(g, r, CC_KIND_ROAD, points, sum.tiles, 0, CC_COL_ROAD, ev);
        } else {
            int points = cc_modules_feature_value(
                g, &sum, CC_KIND_CITY, false, city_points_completed(g, sum.tiles, sum.pennants));
            cc_modules_completed(g, r, CC_KIND_CITY, &sum, ev); /* goods (traders.c) */
            cc_score_completed(g, r, CC_KIND_CITY, points, sum.tiles, sum.pennants, CC_COL_CITY,
                               ev);
        }
    }
    /* Monasteries: the placed tile's own, then its 8 neighbours clockwise from NW, of those
     * the placement surrounded (the board listed them when it placed the tile). */
    for (unsigned i = 0; i < g->nlast_surrounded; i++) {
        unsigned m = g->last_surrounded[i], f;
        if (!monastery_of(g, m, &f)) continue;
        cc_score_completed(g, g->root[cc_node(m, f)], CC_KIND_MONASTERY, 9, 9, 0, CC_COL_MONASTERY,
                           ev);
    }
}

static void final_event(const struct cc_game *g, struct cc_events *ev, uint16_t root,
                        enum cc_kind kind, unsigned seats, int points, unsigned tiles,
                        unsigned count, enum cc_column column)
{
    cc_emit_score(ev, CC_EV_FINAL_SCORED, g, cc_node_tile(root), cc_node_location(g, root), kind,
                  column, seats, points, tiles, count);
}

/* A farm (field with farmers) and the completed cities it touches. */
struct farm {
    uint16_t root;                   /* the field */
    uint8_t farmers[CC_MAX_PLAYERS]; /* per seat (the original edition only) */
};

/* Completed cities touched by the field `root`, distinct, into cities[] (returns count). */
static unsigned touched_cities(const struct cc_game *g, uint16_t root, uint16_t *cities)
{
    unsigned n = 0;
    uint16_t node = root;
    do {
        unsigned tile = cc_node_tile(node);
        const struct cc_tile_type *t = cc_placed_type(g, tile);
        uint16_t touches = t->features[cc_node_feature(node)].touches;
        for (unsigned c = 0; touches; c++, touches >>= 1) {
            if (!(touches & 1)) continue;
            uint16_t city = g->root[cc_node(tile, c)];
            if (g->open[city] != 0) continue;
            unsigned j = 0;
            while (j < n && cities[j] != city) j++;
            if (j == n && n < MAX_CITIES) cities[n++] = city;
        }
        node = g->next[node];
    } while (node != root);
    return n;
}

static void score_farms(const struct cc_game *g, const struct farm *farms, unsigned nfarms,
                        struct cc_player *players, struct cc_events *ev)
{
    uint16_t cities[MAX_CITIES];
    if (g->options.edition == CC_EDITION_STANDARD) {
        /* Each farm on its own: 3 per completed city to its majority. */
        for (unsigned i = 0; i < nfarms; i++) {
            unsigned n = touched_cities(g, farms[i].root, cities);
            if (n == 0) continue;
            unsigned seats = cc_majority(g, farms[i].root);
            /* A winner with a pig in the farm (traders.c) scores 4 per city. */
            unsigned boost = cc_modules_farm_boost(g, farms[i].root, seats) & seats;
            unsigned tiles = cc_feature_tiles(g, farms[i].root);
            if (!boost || (seats & ~boost)) {
                cc_award(players, seats & ~boost, 3 * (int)n, CC_COL_FARM);
                final_event(g, ev, farms[i].root, CC_KIND_FIELD, seats & ~boost, 3 * (int)n, tiles,
                            n, CC_COL_FARM);
            }
            if (boost) {
                cc_award(players, boost, 4 * (int)n, CC_COL_FARM);
                final_event(g, ev, farms[i].root, CC_KIND_FIELD, boost, 4 * (int)n, tiles, n,
                            CC_COL_FARM);
            }
        }
        return;
    }
    /* Original edition: each completed city on its own: the farmers of all the farms
     * that touch it are counted together, and the most get 4. */
    static const uint8_t zero[CC_MAX_PLAYERS];
    uint16_t order[MAX_CITIES];
    uint8_t counts[MAX_CITIES][CC_MAX_PLAYERS];
    unsigned ncities = 0;
    for (unsigned i = 0; i < nfarms; i++) {
        unsigned n = touched_cities(g, farms[i].root, cities);
        for (unsigned k = 0; k < n; k++) {
            unsigned j = 0;
            while (j < ncities && order[j] != cities[k]) j++;
            if (j == ncities) {
                order[ncities] = cities[k];
                memcpy(counts[ncities], zero, sizeof zero);
                ncities++;
            }
            for (unsigned s = 0; s < CC_MAX_PLAYERS; s++)
                counts[j][s] = (uint8_t)(counts[j][s] + farms[i].farmers[s]);
        }
    }
    for (unsigned j = 0; j < ncities; j++) {
        unsigned best = 0, seats = 0;
        for (unsigned s = 0; s < g->nplayers; s++) {
            if (counts[j][s] > best) {
                best = counts[j][s];
                seats = 0;
            }
            if (counts[j][s] == best && best > 0) seats |= 1u << s;
        }
        cc_award(players, seats, 4, CC_COL_FARM);
        final_event(g, ev, order[j], CC_KIND_FIELD, seats, 4, cc_feature_tiles(g, order[j]), 1,
                    CC_COL_FARM);
    }
}

void cc_classic_final_scoring(const struct cc_game *g, struct cc_player *players,
                              struct cc_events *ev)
{
    struct cc_root_set seen;
    seen.n = 0;
    struct farm farms[CC_MAX_PIECES];
    unsigned nfarms = 0;
    for (int i = 0; i < cc_pieces_end(g); i++) {
        const struct cc_piece *pc = &g->pieces[i];
        if (!pc->used || !cc_piece_is_follower(pc->kind)) continue;
        uint16_t r = g->root[cc_node(pc->tile, pc->feature)];
        if (!cc_root_set_add(&seen, r)) continue;
        unsigned kind = cc_placed_type(g, pc->tile)->features[pc->feature].kind;
        unsigned seats = cc_majority(g, r);
        struct cc_feature_sum sum;
        if (kind == CC_KIND_ROAD || kind == CC_KIND_CITY) cc_feature_sum(g, r, &sum);
        switch (kind) {
        case CC_KIND_ROAD: {
            int points = cc_modules_feature_value(g, &sum, CC_KIND_ROAD, true, (int)sum.tiles);
            cc_award(players, seats, points, CC_COL_ROAD);
            final_event(g, ev, r, CC_KIND_ROAD, seats, points, sum.tiles, 0, CC_COL_ROAD);
            break;
        }
        case CC_KIND_CITY: {
            int points = cc_modules_feature_value(g, &sum, CC_KIND_CITY, true,
                                                  (int)(sum.tiles + sum.pennants));
            cc_award(players, seats, points, CC_COL_CITY);
            final_event(g, ev, r, CC_KIND_CITY, seats, points, sum.tiles, sum.pennants,
                        CC_COL_CITY);
            break;
        }
        case CC_KIND_MONASTERY: {
            int points = 1 + g->board[pc->tile].neighbours;
            cc_award(players, seats, points, CC_COL_MONASTERY);
            final_event(g, ev, r, CC_KIND_MONASTERY, seats, points,
                        1u + g->board[pc->tile].neighbours, 0, CC_COL_MONASTERY);
            break;
        }
        case CC_KIND_FIELD:
            farms[nfarms].root = r;
            /* The original edition adds up farmers over the farms around a city; the
             * standard one wants each farm's majority alone (cc_majority(), which needs no
             * count where one seat holds the farm). */
            if (g->options.edition != CC_EDITION_STANDARD)
                cc_pieces_on(g, r, farms[nfarms].farmers);
            nfarms++;
            break;
        default:
            break;
        }
    }
    score_farms(g, farms, nfarms, players, ev);
}
