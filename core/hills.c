/* hills.c: Carcassonne: Over Hill and Dale: harvest tokens, stables, hikes and scoring. */
#include <string.h>

#include "board.h"
#include "game.h"
#include "rules.h"

#define SUPPLY_CROP      5 /* tokens of each crop */
#define SUPPLY_SCARECROW 8 /* wild tokens */
#define SET_BONUS        5 /* points per set of five different crops */

void cc_hills_init(struct cc_game *g)
{
    for (int c = 0; c < CC_CROP_SCARECROW; c++) g->harvest_supply[c] = SUPPLY_CROP;
    g->harvest_supply[CC_CROP_SCARECROW] = SUPPLY_SCARECROW;
}

unsigned cc_hills_token_total(enum cc_crop c)
{
    return c == CC_CROP_SCARECROW ? SUPPLY_SCARECROW : SUPPLY_CROP;
}

/*
 * The harvest score of a hand of tokens: 1 per token plus 5 per set of five different
 * crops, scarecrows standing in for missing crops (several per set allowed, each token
 * in one set at most), counted to make as many sets as possible: k sets are possible
 * exactly when the scarecrows cover every crop's shortfall, sum(max(0, k - held)).
 */
int cc_harvest_score(const uint8_t tokens[CC_CROP_COUNT])
{
    unsigned total = 0;
    for (int c = 0; c < CC_CROP_COUNT; c++) total += tokens[c];
    unsigned sets = 0;
    for (unsigned k = 1; 5 * k <= total; k++) {
        unsigned missing = 0;
        for (int c = 0; c < CC_CROP_SCARECROW; c++)
            if (tokens[c] < k) missing += k - tokens[c];
        if (missing > tokens[CC_CROP_SCARECROW]) break;
        sets = k;
    }
    return (int)(total + SET_BONUS * sets);
}

/* The token the picker takes from `pool`: the largest gain in harvest score; on equal
 * gain a scarecrow first, then the crop the picker holds fewest of, then crop order. */
static int pick_token(const uint8_t held[CC_CROP_COUNT], const uint8_t pool[CC_CROP_COUNT])
{
    int base = cc_harvest_score(held);
    int best = -1, best_gain = 0;
    static const int order[CC_CROP_COUNT] = {CC_CROP_SCARECROW,  CC_CROP_APPLE,
                                             CC_CROP_STRAWBERRY, CC_CROP_PUMPKIN,
                                             CC_CROP_SUNFLOWER,  CC_CROP_GRAIN};
    for (int i = 0; i < CC_CROP_COUNT; i++) {
        int c = order[i];
        if (pool[c] == 0) continue;
        uint8_t with[CC_CROP_COUNT];
        memcpy(with, held, sizeof with);
        with[c]++;
        int gain = cc_harvest_score(with) - base;
        if (best < 0 || gain > best_gain) {
            best = c;
            best_gain = gain;
        } else if (gain == best_gain && best != CC_CROP_SCARECROW && c != CC_CROP_SCARECROW &&
                   held[c] < held[best]) {
            best = c; /* among crops of equal gain: the one held fewest of (order breaks ties) */
        }
    }
    return best;
}

/* Hands out the harvest tokens of a completed farmland (symbols `symbols`) to `seats`,
 * limited by the supply; ties pick in turn from the placing seat. Records them in e. */
static void give_tokens(struct cc_game *g, unsigned seats, const unsigned symbols[CC_CROP_COUNT],
                        struct cc_event *e)
{
    uint8_t pool[CC_CROP_COUNT];
    unsigned left = 0;
    for (int c = 0; c < CC_CROP_COUNT; c++) {
        unsigned n = symbols[c] < g->harvest_supply[c] ? symbols[c] : g->harvest_supply[c];
        pool[c] = (uint8_t)n;
        left += n;
    }
    if (seats == 0) return; /* nobody's farmland: the tokens stay in the supply */
    unsigned seat = g->seat;
    while (left > 0) {
        while (!(seats & (1u << seat))) seat = (seat + 1) % g->nplayers;
        struct cc_player *p = &g->players[seat];
        int c = pick_token(p->harvest, pool);
        pool[c]--;
        left--;
        p->harvest[c]++;
        g->harvest_supply[c]--;
        if (e) e->tokens[seat][c]++;
        seat = (seat + 1) % g->nplayers;
    }
}

/* Sum of the harvest symbols printed on the farmland `root`. */
static void farmland_symbols(const struct cc_game *g, uint16_t root, unsigned out[CC_CROP_COUNT])
{
    memset(out, 0, sizeof(unsigned) * CC_CROP_COUNT);
    uint16_t n = root;
    do {
        const struct cc_feature_type *f =
            &cc_placed_type(g, cc_node_tile(n))->features[cc_node_feature(n)];
        for (int c = 0; c < CC_CROP_COUNT; c++) out[c] += f->harvest[c];
        n = g->next[n];
    } while (n != root);
}

void cc_hills_score_placement(struct cc_game *g, unsigned tile, struct cc_events *ev)
{
    uint16_t done[CC_MAX_TILE_FEATURES];
    unsigned ndone =
        cc_completed_on_tile(g, tile, 1u << CC_KIND_TRAIL | 1u << CC_KIND_FARMLAND, done);
    for (unsigned i = 0; i < ndone; i++) {
        uint16_t r = done[i];
        unsigned tiles = cc_feature_tiles(g, r);
        if (cc_placed_type(g, cc_node_tile(r))->features[cc_node_feature(r)].kind ==
            CC_KIND_TRAIL) {
            cc_score_completed(g, r, CC_KIND_TRAIL, (int)tiles, tiles, 0, CC_COL_TRAIL, ev);
            continue;
        }
        unsigned symbols[CC_CROP_COUNT], count = 0;
        farmland_symbols(g, r, symbols);
        for (int c = 0; c < CC_CROP_COUNT; c++) count += symbols[c];
        unsigned seats = cc_majority(g, r);
        size_t at = ev ? ev->n : 0;
        cc_score_completed(g, r, CC_KIND_FARMLAND, 2 * (int)tiles, tiles, count, CC_COL_FARMLAND,
                           ev);
        give_tokens(g, seats, symbols, ev ? &ev->ev[at] : NULL);
    }
}

static void final_event(const struct cc_game *g, struct cc_events *ev, unsigned tile, unsigned loc,
                        enum cc_kind kind, unsigned seats, int points, unsigned tiles,
                        unsigned count, enum cc_column column)
{
    cc_emit_score(ev, CC_EV_FINAL_SCORED, g, tile, loc, kind, column, seats, points, tiles, count);
}

/* Animals on the tile at (x, y) and the 8 around it. */
static unsigned animals_around(const struct cc_game *g, int x, int y)
{
    unsigned n = 0;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            unsigned t;
            if (!cc_square_tile(g, x + dx, y + dy, &t)) continue;
            const struct cc_tile_type *tt = cc_placed_type(g, t);
            for (int a = 0; a < CC_ANIMAL_COUNT; a++) n += tt->animals[a];
        }
    return n;
}

void cc_hills_final_scoring(const struct cc_game *g, struct cc_player *players,
                            struct cc_events *ev)
{
    struct cc_root_set seen;
    seen.n = 0;
    for (int i = 0; i < CC_MAX_PIECES; i++) {
        const struct cc_piece *pc = &g->pieces[i];
        if (!pc->used) continue;
        if (pc->kind == CC_PIECE_STABLE) {
            unsigned animals = animals_around(g, g->board[pc->tile].x, g->board[pc->tile].y);
            cc_award(players, 1u << pc->seat, (int)animals, CC_COL_STABLE);
            final_event(g, ev, pc->tile, pc->loc, CC_KIND_MEADOW, 1u << pc->seat, (int)animals,
                        1u + g->board[pc->tile].neighbours, animals, CC_COL_STABLE);
            continue;
        }
        uint16_t r = g->root[cc_node(pc->tile, pc->feature)];
        if (!cc_root_set_add(&seen, r)) continue;
        unsigned kind = cc_placed_type(g, pc->tile)->features[pc->feature].kind;
        unsigned seats = cc_majority(g, r), tiles = cc_feature_tiles(g, r);
        enum cc_column col = kind == CC_KIND_TRAIL ? CC_COL_TRAIL : CC_COL_FARMLAND;
        cc_award(players, seats, (int)tiles, col);
        final_event(g, ev, cc_node_tile(r), cc_node_location(g, r), (enum cc_kind)kind, seats,
                    (int)tiles, tiles, 0, col);
    }
    for (unsigned s = 0; s < g->nplayers; s++) {
        int points = cc_harvest_score(g->players[s].harvest);
        if (points == 0) continue;
        cc_award(players, 1u << s, points, CC_COL_HARVEST);
        struct cc_event *e = cc_emit(ev, CC_EV_FINAL_SCORED);
        if (!e) continue;
        e->kind = CC_KIND_FARMLAND;
        e->column = CC_COL_HARVEST;
        e->seats = (uint8_t)(1u << s);
        e->points = (int16_t)points;
        for (int c = 0; c < CC_CROP_COUNT; c++) {
            e->tokens[s][c] = g->players[s].harvest[c];
            e->count = (uint16_t)(e->count + g->players[s].harvest[c]);
        }
    }
}

/* ---- stables ---- */

static bool stable_near(const struct cc_game *g, int x, int y)
{
    for (int i = 0; i < CC_MAX_PIECES; i++) {
        const struct cc_piece *pc = &g->pieces[i];
        if (!pc->used || pc->kind != CC_PIECE_STABLE) continue;
        int dx = g->board[pc->tile].x - x, dy = g->board[pc->tile].y - y;
        if (dx >= -1 && dx <= 1 && dy >= -1 && dy <= 1) return true;
    }
    return false;
}

static enum cc_status check_stable(const struct cc_game *g, const struct cc_action *a)
{
    const struct cc_tile_type *t = &cc_types(g)[g->drawn];
    if (a->loc >= CC_LOC_COUNT) return CC_ERR_BAD_LOCATION;
    unsigned f = t->slot_feature[a->rot][a->loc];
    if (f == CC_NO_FEATURE) return CC_ERR_NO_FEATURE_THERE;
    if (t->features[f].kind != CC_KIND_MEADOW) return CC_ERR_NOT_ALLOWED_HERE;
    if (g->players[a->seat].stables == 0) return CC_ERR_NO_STABLES_LEFT;
    if (stable_near(g, a->x, a->y)) return CC_ERR_STABLE_TOO_CLOSE;
    return CC_OK;
}

static void build_stable(struct cc_game *g, unsigned tile, const struct cc_action *a,
                         struct cc_events *ev)
{
    cc_piece_add(g, a->seat, CC_PIECE_STABLE, tile, a->loc);
    g->players[a->seat].stables--;
    cc_emit_piece(ev, CC_EV_STABLE_BUILT, a, CC_KIND_MEADOW);
}

/* ---- hikes ---- */

/* A trail piece holding `tile`'s hiker: whether any hiker stands on that tile. */
static bool hiker_on(const struct cc_game *g, unsigned tile)
{
    for (int i = 0; i < CC_MAX_PIECES; i++) {
        const struct cc_piece *pc = &g->pieces[i];
        if (pc->used && pc->kind == CC_PIECE_FOLLOWER && pc->tile == tile &&
            cc_placed_type(g, tile)->features[pc->feature].kind == CC_KIND_TRAIL)
            return true;
    }
    return false;
}

/* The piece index of seat's hiker on (x, y) whose trail segment leaves through `side`,
 * or a negative status. */
static int find_hiker(const struct cc_game *g, unsigned seat, int x, int y, unsigned side,
                      enum cc_status *why)
{
    unsigned tile;
    *why = CC_ERR_NO_FOLLOWER_THERE;
    if (side > 3 || !cc_square_tile(g, x, y, &tile)) return -1;
    const struct cc_tile_type *t = cc_placed_type(g, tile);
    unsigned f = t->slot_feature[g->board[tile].rot][3 * side + 1];
    if (t->features[f].kind != CC_KIND_TRAIL) return -1;
    for (int i = 0; i < CC_MAX_PIECES; i++) {
        const struct cc_piece *pc = &g->pieces[i];
        if (!pc->used || pc->kind != CC_PIECE_FOLLOWER || pc->tile != tile || pc->feature != f)
            continue;
        if (pc->seat == seat) return i;
        *why = CC_ERR_NOT_YOUR_FOLLOWER;
    }
    return -1;
}

/* Where a hike from piece `i` out through `side` ends: the board tile and entry side, and
 * the tiles entered up to the stop. Returns false when it can stop nowhere. */
static bool walk(const struct cc_game *g, int i, unsigned side, unsigned *stop_tile,
                 unsigned *stop_side, unsigned *entered)
{
    unsigned tile = g->pieces[i].tile;
    unsigned steps = 0;
    bool found = false;
    for (unsigned guard = 0; guard < CC_MAX_BOARD; guard++) {
        unsigned next;
        if (!cc_square_tile(g, g->board[tile].x + cc_side_dx[side],
                            g->board[tile].y + cc_side_dy[side], &next))
            break; /* an open side: the trail goes no farther */
        unsigned in = (side + 2) & 3;
        steps++;
        if (!hiker_on(g, next)) {
            found = true;
            *stop_tile = next;
            *stop_side = in;
            *entered = steps;
        }
        /* Onwards through the other side of this segment, if it passes through. */
        const struct cc_tile_type *t = cc_placed_type(g, next);
        unsigned rot = g->board[next].rot;
        uint16_t slots = cc_rotate_slots(t->features[t->slot_feature[rot][3 * in + 1]].slots, rot);
        unsigned out = 4;
        for (unsigned s = 0; s < 4; s++)
            if (s != in && (slots & (1u << (3 * s + 1)))) out = s;
        if (out == 4) break; /* it ends here, at a junction or a farmland */
        tile = next;
        side = out;
    }
    return found;
}

/* Whether the trail of piece `i` runs through board tile `tile`. */
static bool trail_extended_by(const struct cc_game *g, int i, unsigned tile)
{
    uint16_t r = g->root[cc_node(g->pieces[i].tile, g->pieces[i].feature)];
    const struct cc_tile_type *t = cc_placed_type(g, tile);
    for (unsigned f = 0; f < t->nfeatures; f++)
        if (g->root[cc_node(tile, f)] == r) return true;
    return false;
}

/* The hike rules on a game where the tile has been placed and scored. */
static enum cc_status check_hike_after(const struct cc_game *g, unsigned tile, unsigned seat, int x,
                                       int y, unsigned side)
{
    enum cc_status why;
    int i = find_hiker(g, seat, x, y, side, &why);
    if (i < 0) return why;
    uint16_t r = g->root[cc_node(g->pieces[i].tile, g->pieces[i].feature)];
    if (!trail_extended_by(g, i, tile) || g->open[r] == 0) return CC_ERR_NO_HIKE_POSSIBLE;
    unsigned st, ss, n;
    if (!walk(g, i, side, &st, &ss, &n)) return CC_ERR_NO_HIKE_POSSIBLE;
    return CC_OK;
}

/* Places the drawn tile on a copy and scores it, as the turn would before a hike. */
static unsigned place_on_copy(struct cc_game *copy, const struct cc_game *g,
                              const struct cc_action *a)
{
    memcpy(copy, g, sizeof *copy);
    unsigned tile = cc_board_place(copy, copy->drawn, a->x, a->y, a->rot, NULL);
    cc_hills_score_placement(copy, tile, NULL);
    return tile;
}

static enum cc_status check_hike(const struct cc_game *g, const struct cc_action *a)
{
    if (a->loc > 3) return CC_ERR_BAD_LOCATION;
    /* The hiker must stand there when the turn starts; one that the turn's own scoring
     * sends home (its trail completed) stands there but may not hike. */
    enum cc_status why;
    if (find_hiker(g, a->seat, a->fx, a->fy, a->loc, &why) < 0) return why;
    struct cc_game copy;
    unsigned tile = place_on_copy(&copy, g, a);
    enum cc_status st = check_hike_after(&copy, tile, a->seat, a->fx, a->fy, a->loc);
    return st == CC_ERR_NO_FOLLOWER_THERE ? CC_ERR_NO_HIKE_POSSIBLE : st;
}

static void do_hike(struct cc_game *g, const struct cc_action *a, struct cc_events *ev)
{
    enum cc_status why;
    int i = find_hiker(g, a->seat, a->fx, a->fy, a->loc, &why);
    unsigned stop, in, entered;
    if (i < 0 || !walk(g, i, a->loc, &stop, &in, &entered)) return; /* checked before */
    struct cc_piece *pc = &g->pieces[i];
    const struct cc_tile_type *t = cc_placed_type(g, stop);
    uint16_t from = g->root[cc_node(pc->tile, pc->feature)];
    pc->tile = (uint8_t)stop;
    pc->loc = (uint8_t)(3 * in + 1);
    pc->feature = t->slot_feature[g->board[stop].rot][pc->loc];
    /* The hiker left one feature for another: the index of both follows. */
    cc_holders_refresh(g, from);
    g->holders[g->root[cc_node(stop, pc->feature)]] |= cc_holder_bit(pc);
    cc_award(g->players, 1u << a->seat, (int)entered, CC_COL_HIKE);
    struct cc_event *e = cc_emit(ev, CC_EV_HIKER_MOVED);
    if (e) {
        e->seat = a->seat;
        e->x = a->fx;
        e->y = a->fy;
        e->x2 = g->board[stop].x;
        e->y2 = g->board[stop].y;
        e->loc = pc->loc;
        e->kind = CC_KIND_TRAIL;
        e->column = CC_COL_HIKE;
        e->seats = (uint8_t)(1u << a->seat);
        e->points = (int16_t)entered;
        e->tiles = (uint16_t)entered;
    }
}

enum cc_status cc_hills_check_followup(const struct cc_game *g, const struct cc_action *a)
{
    switch (a->follow) {
    case CC_FOLLOW_STABLE:
        return check_stable(g, a);
    case CC_FOLLOW_HIKE:
        return check_hike(g, a);
    default:
        return CC_ERR_FOLLOWUP_NOT_IN_RULESET;
    }
}

void cc_hills_apply_followup(struct cc_game *g, unsigned tile, const struct cc_action *a,
                             bool after_scoring, struct cc_events *ev)
{
    if (a->follow == CC_FOLLOW_STABLE && !after_scoring) build_stable(g, tile, a, ev);
    if (a->follow == CC_FOLLOW_HIKE && after_scoring) do_hike(g, a, ev);
}

void cc_hills_placement_followups(const struct cc_game *g, struct cc_placement *p)
{
    const struct cc_tile_type *t = &cc_types(g)[p->tile];
    if (g->players[g->seat].stables > 0 && !stable_near(g, p->x, p->y))
        for (unsigned f = 0; f < t->nfeatures; f++)
            if (t->features[f].kind == CC_KIND_MEADOW)
                p->stable |= cc_rotate_slots(t->features[f].slots, p->rot);
    /* Hikes: only worth a trial placement when a trail of the tile joins one of the
     * player's hikers. */
    uint16_t own[CC_MAX_PIECES]; /* the features of the player's followers */
    unsigned nown = 0;
    for (int i = 0; i < CC_MAX_PIECES; i++) {
        const struct cc_piece *pc = &g->pieces[i];
        if (pc->used && pc->kind == CC_PIECE_FOLLOWER && pc->seat == g->seat)
            own[nown++] = g->root[cc_node(pc->tile, pc->feature)];
    }
    bool joins_own = false;
    struct cc_joins joins;
    if (nown > 0) cc_joins_at(g, t, p->x, p->y, p->rot, &joins);
    for (unsigned f = 0; f < t->nfeatures && nown > 0 && !joins_own; f++) {
        if (t->features[f].kind != CC_KIND_TRAIL) continue;
        uint16_t roots[12];
        unsigned n = cc_joins_of(&joins, f, roots);
        for (unsigned k = 0; k < nown; k++)
            for (unsigned j = 0; j < n; j++) joins_own |= roots[j] == own[k];
    }
    if (!joins_own) return;
    struct cc_game copy;
    struct cc_action a = {
        .kind = CC_ACTION_PLACE, .seat = g->seat, .x = p->x, .y = p->y, .rot = p->rot};
    unsigned tile = place_on_copy(&copy, g, &a);
    unsigned k = 0;
    for (int i = 0; i < CC_MAX_PIECES; i++) {
        const struct cc_piece *pc = &g->pieces[i];
        if (!pc->used || pc->kind != CC_PIECE_FOLLOWER || pc->seat != g->seat) continue;
        for (unsigned side = 0; side < 4; side++)
            if (check_hike_after(&copy, tile, g->seat, g->board[pc->tile].x, g->board[pc->tile].y,
                                 side) == CC_OK)
                p->hike |= (uint16_t)(1u << (4 * k + side));
        k++;
    }
}

bool cc_hike_origin(const struct cc_game *g, unsigned k, int16_t *x, int16_t *y)
{
    for (int i = 0; i < CC_MAX_PIECES; i++) {
        const struct cc_piece *pc = &g->pieces[i];
        if (!pc->used || pc->kind != CC_PIECE_FOLLOWER || pc->seat != g->seat) continue;
        if (k-- == 0) {
            *x = g->board[pc->tile].x;
            *y = g->board[pc->tile].y;
            return true;
        }
    }
    return false;
}
