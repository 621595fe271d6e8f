/* rules.c: the table of rulesets and the scoring helpers they share. */
#include <string.h>

#include "board.h"
#include "modules.h"
#include "rules.h"

#define KIND(k) (1u << (k))
#define COL(c)  (1u << (c))

static const struct cc_rules classic_rules = {
    .followers = 7,
    .stables = 0,
    .columns = COL(CC_COL_ROAD) | COL(CC_COL_CITY) | COL(CC_COL_MONASTERY) | COL(CC_COL_FARM),
    .follower_kinds =
        KIND(CC_KIND_CITY) | KIND(CC_KIND_ROAD) | KIND(CC_KIND_FIELD) | KIND(CC_KIND_MONASTERY),
    .score_placement = cc_classic_score_placement,
    .final_scoring = cc_classic_final_scoring,
};

static const struct cc_rules hills_rules = {
    .followers = 4,
    .stables = 2,
    .columns = COL(CC_COL_TRAIL) | COL(CC_COL_FARMLAND) | COL(CC_COL_HIKE) | COL(CC_COL_STABLE) |
               COL(CC_COL_HARVEST),
    .follower_kinds = KIND(CC_KIND_TRAIL) | KIND(CC_KIND_FARMLAND),
    .init = cc_hills_init,
    .score_placement = cc_hills_score_placement,
    .final_scoring = cc_hills_final_scoring,
    .check_followup = cc_hills_check_followup,
    .apply_followup = cc_hills_apply_followup,
    .placement_followups = cc_hills_placement_followups,
};

/* Discovery: nothing scores on completion; the one own follow-up is the withdrawal. */
static const struct cc_rules discovery_rules = {
    .followers = 4,
    .stables = 0,
    .columns = COL(CC_COL_GRASSLAND) | COL(CC_COL_MOUNTAIN) | COL(CC_COL_SEA),
    .follower_kinds = KIND(CC_KIND_MOUNTAIN) | KIND(CC_KIND_GRASS) | KIND(CC_KIND_SEA),
    .score_placement = cc_discovery_score_placement,
    .final_scoring = cc_discovery_final_scoring,
    .check_followup = cc_discovery_check_followup,
    .apply_followup = cc_discovery_apply_followup,
};

const struct cc_rules *cc_rules_of(enum cc_ruleset r)
{
    if (!cc_tileset_get(r)) return NULL;
    switch (r) {
    case CC_RULESET_CLASSIC:
        return &classic_rules;
    case CC_RULESET_HILLS:
        return &hills_rules;
    case CC_RULESET_DISCOVERY:
        return &discovery_rules;
    default:
        return NULL;
    }
}

unsigned cc_ruleset_columns(enum cc_ruleset r)
{
    const struct cc_rules *rules = cc_rules_of(r);
    return rules ? rules->columns : 0;
}

unsigned cc_ruleset_followers(enum cc_ruleset r)
{
    const struct cc_rules *rules = cc_rules_of(r);
    return rules ? rules->followers : 0;
}

struct cc_event *cc_emit(struct cc_events *ev, enum cc_event_type type)
{
    if (!ev || ev->n >= CC_MAX_EVENTS) return NULL;
    struct cc_event *e = &ev->ev[ev->n++];
    memset(e, 0, sizeof *e);
    e->type = (uint8_t)type;
    e->seat = CC_NO_SEAT;
    e->tile = CC_NO_TILE;
    return e;
}

struct cc_event *cc_emit_piece(struct cc_events *ev, enum cc_event_type type,
                               const struct cc_action *a, unsigned kind)
{
    struct cc_event *e = cc_emit(ev, type);
    if (!e) return NULL;
    e->seat = a->seat;
    e->x = a->x;
    e->y = a->y;
    e->loc = a->loc;
    e->kind = (uint8_t)kind;
    return e;
}

bool cc_root_set_add(struct cc_root_set *set, uint16_t root)
{
    for (unsigned j = 0; j < set->n; j++)
        if (set->root[j] == root) return false;
    if (set->n < CC_MAX_PIECES) set->root[set->n++] = root;
    return true;
}

void cc_award(struct cc_player *players, unsigned seats, int points, enum cc_column column)
{
    for (unsigned s = 0; s < CC_MAX_PLAYERS; s++) {
        if (!(seats & (1u << s))) continue;
        players[s].score = (int16_t)(players[s].score + points);
        players[s].columns[column] = (int16_t)(players[s].columns[column] + points);
    }
}

unsigned cc_majority(const struct cc_game *g, uint16_t root)
{
    /* Held by one seat alone (or by none): that seat has the majority, whatever the
     * figures' weights, and no count is needed. */
    unsigned only = g->holders[root] & CC_HOLDER_FOLLOWERS;
    if ((only & (only - 1)) == 0) return only;
    uint8_t per_seat[CC_MAX_PLAYERS];
    if (cc_pieces_on(g, root, per_seat) == 0) return 0;
    unsigned best = 0, seats = 0;
    for (unsigned s = 0; s < g->nplayers; s++) {
        if (per_seat[s] > best) {
            best = per_seat[s];
            seats = 0;
        }
        if (per_seat[s] == best && best > 0) seats |= 1u << s;
    }
    return seats;
}

uint8_t cc_node_location(const struct cc_game *g, uint16_t node)
{
    const struct cc_placed *p = &g->board[cc_node_tile(node)];
    const struct cc_tile_type *t = cc_placed_type(g, cc_node_tile(node));
    uint16_t slots = cc_rotate_slots(t->features[cc_node_feature(node)].slots, p->rot);
    for (unsigned loc = 0; loc < CC_LOC_COUNT; loc++)
        if (slots & (1u << loc)) return (uint8_t)loc;
    return CC_LOC_C;
}

struct cc_event *cc_emit_score(struct cc_events *ev, enum cc_event_type type,
                               const struct cc_game *g, unsigned tile, unsigned loc,
                               enum cc_kind kind, enum cc_column column, unsigned seats, int points,
                               unsigned tiles, unsigned count)
{
    struct cc_event *e = cc_emit(ev, type);
    if (!e) return NULL;
    e->x = g->board[tile].x;
    e->y = g->board[tile].y;
    e->loc = (uint8_t)loc;
    e->kind = (uint8_t)kind;
    e->column = (uint8_t)column;
    e->seats = (uint8_t)seats;
    e->points = (int16_t)points;
    e->tiles = (uint16_t)tiles;
    e->count = (uint16_t)count;
    return e;
}

unsigned cc_completed_on_tile(const struct cc_game *g, unsigned tile, unsigned kinds,
                              uint16_t roots[CC_MAX_TILE_FEATURES])
{
    const struct cc_tile_type *t = cc_placed_type(g, tile);
    unsigned rot = g->board[tile].rot, n = 0;
    /* Per feature of a wanted kind on a complete feature: its first edge location (features
     * cover disjoint locations), then in that order, each root once. */
    uint8_t first[CC_MAX_TILE_FEATURES];
    uint16_t found[CC_MAX_TILE_FEATURES];
    unsigned nfound = 0;
    for (unsigned f = 0; f < t->nfeatures; f++) {
        if (!(kinds & (1u << t->features[f].kind))) continue;
        uint16_t edges = cc_rotate_slots(t->features[f].slots, rot) & CC_EDGE_SLOTS_MASK;
        if (!edges) continue;
        uint16_t r = g->root[cc_node(tile, f)];
        if (g->open[r] != 0) continue;
        unsigned loc = (unsigned)__builtin_ctz(edges), j = nfound++;
        for (; j > 0 && first[j - 1] > loc; j--) { /* insertion by first location */
            first[j] = first[j - 1];
            found[j] = found[j - 1];
        }
        first[j] = (uint8_t)loc;
        found[j] = r;
    }
    for (unsigned i = 0; i < nfound; i++) {
        unsigned j = 0;
        while (j < n && roots[j] != found[i]) j++;
        if (j == n) roots[n++] = found[i];
    }
    return n;
}

struct cc_piece *cc_piece_add(struct cc_game *g, unsigned seat, enum cc_piece_kind kind,
                              unsigned tile, unsigned loc)
{
    /* The lowest free entry (the callers never add a piece past CC_MAX_PIECES). */
    int i = __builtin_ctzll(~g->pieces_used);
    struct cc_piece *pc = &g->pieces[i];
    g->pieces_used |= 1ull << i;
    pc->used = 1;
    pc->seat = (uint8_t)seat;
    pc->kind = (uint8_t)kind;
    pc->tile = (uint8_t)tile;
    pc->loc = (uint8_t)loc;
    pc->feature = cc_placed_type(g, tile)->slot_feature[g->board[tile].rot][loc];
    g->holders[g->root[cc_node(tile, pc->feature)]] |= cc_holder_bit(pc);
    return pc;
}

/* Takes `pc` off the board, leaving holders[] to the caller. */
static void piece_clear(struct cc_game *g, struct cc_piece *pc)
{
    memset(pc, 0, sizeof *pc);
    g->pieces_used &= ~(1ull << (pc - g->pieces));
}

void cc_piece_remove(struct cc_game *g, struct cc_piece *pc)
{
    uint16_t root = g->root[cc_node(pc->tile, pc->feature)];
    piece_clear(g, pc);
    cc_holders_refresh(g, root); /* another piece of the seat may still hold it */
}

void cc_score_completed(struct cc_game *g, uint16_t root, enum cc_kind kind, int points,
                        unsigned tiles, unsigned count, enum cc_column column, struct cc_events *ev)
{
    unsigned seats = cc_majority(g, root);
    cc_award(g->players, seats, points, column);
    struct cc_event *e =
        cc_emit_score(ev, CC_EV_FEATURE_SCORED, g, cc_node_tile(root), cc_node_location(g, root),
                      kind, column, seats, points, tiles, count);
    if (e) e->seat = g->seat;
    /* Followers, large followers and builders (traders.c) go back; pigs stand on fields.
     * Those are the figures holders[] has: without any there is nothing to give back. */
    unsigned held = g->holders[root];
    if (!held) return;
    for (int i = 0; i < cc_pieces_end(g); i++) {
        struct cc_piece *pc = &g->pieces[i];
        /* A figure whose bit the feature's holders lack is elsewhere: no look-up of its
         * root (the bit is none for a pig, which stays). */
        if (!pc->used || !(cc_holder_bit(pc) & held)) continue;
        if (g->root[cc_node(pc->tile, pc->feature)] != root) continue;
        (*cc_supply_of(&g->players[pc->seat], (enum cc_piece_kind)pc->kind))++;
        struct cc_event *r = cc_emit(ev, CC_EV_FOLLOWER_RETURNED);
        if (r) {
            r->seat = pc->seat;
            r->x = g->board[pc->tile].x;
            r->y = g->board[pc->tile].y;
            r->loc = pc->loc;
            r->kind = (uint8_t)kind;
            r->figure = pc->kind;
        }
        piece_clear(g, pc);
    }
    g->holders[root] = 0; /* every figure it has went back */
}

unsigned cc_pieces_on(const struct cc_game *g, uint16_t root, uint8_t per_seat[CC_MAX_PLAYERS])
{
    unsigned total = 0;
    if (per_seat) memset(per_seat, 0, CC_MAX_PLAYERS);
    /* Most features hold no follower: the index says so without passing over the pieces. */
    unsigned held = g->holders[root] & CC_HOLDER_FOLLOWERS;
    if (!held) return 0;
    for (int i = 0; i < cc_pieces_end(g); i++) {
        const struct cc_piece *pc = &g->pieces[i];
        /* Of a seat that holds it, or elsewhere (no look-up of its root). */
        if (!pc->used || !(held >> pc->seat & 1u) || !cc_piece_is_follower(pc->kind)) continue;
        if (g->root[cc_node(pc->tile, pc->feature)] != root) continue;
        total++;
        /* A plain follower weighs 1 whatever the modules (struct cc_module's figure_weight):
         * only the others ask them. */
        if (per_seat)
            per_seat[pc->seat] =
                (uint8_t)(per_seat[pc->seat] +
                          (pc->kind == CC_PIECE_FOLLOWER ? 1u : cc_figure_weight(g, pc)));
    }
    return total;
}

unsigned cc_game_columns(const struct cc_game *g)
{
    unsigned cols = cc_ruleset_columns((enum cc_ruleset)g->ruleset);
    for (unsigned i = 0; i < CC_MODULE_COUNT; i++) {
        const struct cc_module *m = cc_module_get((enum cc_module_id)i);
        if (cc_module_on(m, &g->options)) cols |= m->columns;
    }
    return cols;
}
