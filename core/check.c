/* check.c: every invariant of a game, checked from scratch (tests run it after each action). */
#include <string.h>

#include "board.h"
#include "game.h"
#include "hand.h"
#include "modules.h"
#include "options.h"
#include "rules.h"

/* Fails the check, recording which line of this file found the fault. */
#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            *where = __LINE__;                                                                     \
            return CC_ERR_CORRUPT;                                                                 \
        }                                                                                          \
    } while (0)

/* The board's squares, frontier and graph equal a rebuild from the placement order, and the
 * index of the features' holders one from the pieces. */
static enum cc_status check_board(const struct cc_game *g, int *where)
{
    struct cc_game fresh;
    memcpy(&fresh, g, sizeof fresh);
    CHECK(cc_board_rebuild(&fresh));
    CHECK(memcmp(fresh.board, g->board, sizeof g->board) == 0);
    CHECK(memcmp(fresh.root, g->root, sizeof g->root) == 0);
    CHECK(memcmp(fresh.next, g->next, sizeof g->next) == 0);
    CHECK(memcmp(fresh.size, g->size, sizeof g->size) == 0);
    CHECK(memcmp(fresh.open, g->open, sizeof g->open) == 0);
    CHECK(memcmp(fresh.holders, g->holders, sizeof g->holders) == 0); /* from the pieces */
    CHECK(memcmp(fresh.cell_key, g->cell_key, sizeof g->cell_key) == 0);
    CHECK(memcmp(fresh.cell_val, g->cell_val, sizeof g->cell_val) == 0);
    CHECK(fresh.nfrontier == g->nfrontier);
    CHECK(memcmp(fresh.frontier, g->frontier, sizeof g->frontier) == 0);
    CHECK(memcmp(fresh.frontier_nb, g->frontier_nb, sizeof g->frontier_nb) == 0);
    CHECK(memcmp(fresh.frontier_node, g->frontier_node, sizeof g->frontier_node) == 0);
    CHECK(memcmp(fresh.frontier_nnodes, g->frontier_nnodes, sizeof g->frontier_nnodes) == 0);
    CHECK(memcmp(fresh.frontier_rc, g->frontier_rc, sizeof g->frontier_rc) == 0);
    CHECK(fresh.nlast_surrounded == g->nlast_surrounded);
    CHECK(memcmp(fresh.last_surrounded, g->last_surrounded, sizeof g->last_surrounded) == 0);
    /* Open slots are never negative, and a root's size is its member count. */
    for (unsigned t = 0; t < g->nboard; t++) {
        const struct cc_tile_type *tt = cc_placed_type(g, t);
        for (unsigned f = 0; f < tt->nfeatures; f++) {
            uint16_t n = cc_node(t, f), r = g->root[n];
            CHECK(g->root[r] == r && g->open[r] >= 0);
            if (r != n) continue;
            unsigned members = 0;
            uint16_t m = n;
            do {
                CHECK(g->root[m] == r);
                members++;
                m = g->next[m];
            } while (m != n && members <= CC_MAX_NODES);
            CHECK(members == g->size[r]);
        }
    }
    return CC_OK;
}

/* Whether the feature `root` holds a follower (or the large follower) of `seat`. */
static bool holds_own(const struct cc_game *g, uint16_t root, unsigned seat)
{
    for (int i = 0; i < CC_MAX_PIECES; i++) {
        const struct cc_piece *pc = &g->pieces[i];
        if (pc->used && pc->seat == seat && cc_piece_is_follower(pc->kind) &&
            g->root[cc_node(pc->tile, pc->feature)] == root)
            return true;
    }
    return false;
}

static enum cc_status check_pieces(const struct cc_game *g, const struct cc_rules *rules,
                                   int *where)
{
    unsigned on_board[CC_MAX_PLAYERS][CC_PIECE_KIND_COUNT] = {{0}};
    for (int i = 0; i < CC_MAX_PIECES; i++) {
        const struct cc_piece *pc = &g->pieces[i];
        CHECK((g->pieces_used >> i & 1u) == (pc->used ? 1u : 0u));
        if (!pc->used) {
            static const struct cc_piece none;
            CHECK(memcmp(pc, &none, sizeof none) == 0);
            continue;
        }
        CHECK(pc->used == 1 && pc->seat < g->nplayers && pc->tile < g->nboard);
        CHECK(!cc_seat_resigned(g, pc->seat)); /* their pieces left at resignation */
        CHECK(pc->loc < CC_LOC_COUNT);
        const struct cc_tile_type *t = cc_placed_type(g, pc->tile);
        CHECK(t->slot_feature[g->board[pc->tile].rot][pc->loc] == pc->feature);
        CHECK(pc->feature < t->nfeatures);
        unsigned kind = t->features[pc->feature].kind;
        uint16_t r = g->root[cc_node(pc->tile, pc->feature)];
        CHECK(pc->kind < CC_PIECE_KIND_COUNT);
        on_board[pc->seat][pc->kind]++;
        if (pc->kind != CC_PIECE_STABLE) CHECK(cc_figure_in_game(g, pc->kind));
        if (cc_piece_is_follower(pc->kind)) {
            CHECK(rules->follower_kinds & (1u << kind));
            /* Completed roads, cities, trails, farmlands and monasteries give their
             * followers back at once. */
            if (kind == CC_KIND_ROAD || kind == CC_KIND_CITY || kind == CC_KIND_TRAIL ||
                kind == CC_KIND_FARMLAND)
                CHECK(g->open[r] > 0);
            if (kind == CC_KIND_MONASTERY) CHECK(g->board[pc->tile].neighbours < 8);
        } else if (pc->kind == CC_PIECE_STABLE) {
            CHECK(kind == CC_KIND_MEADOW);
        } else if (pc->kind == CC_PIECE_BUILDER) {
            /* On an open road or city with a follower of its owner (traders.c). */
            CHECK((kind == CC_KIND_ROAD || kind == CC_KIND_CITY) && g->open[r] > 0);
            CHECK(holds_own(g, r, pc->seat));
        } else if (pc->kind == CC_PIECE_PIG) {
            CHECK(kind == CC_KIND_FIELD && holds_own(g, r, pc->seat));
        } else {
            return CC_ERR_CORRUPT;
        }
    }
    /* No two stables within a tile's 8 neighbours of each other (all pieces are valid now). */
    for (int i = 0; i < CC_MAX_PIECES; i++) {
        const struct cc_piece *pc = &g->pieces[i];
        if (!pc->used || pc->kind != CC_PIECE_STABLE) continue;
        for (int j = i + 1; j < CC_MAX_PIECES; j++) {
            const struct cc_piece *o = &g->pieces[j];
            if (!o->used || o->kind != CC_PIECE_STABLE) continue;
            int dx = g->board[o->tile].x - g->board[pc->tile].x;
            int dy = g->board[o->tile].y - g->board[pc->tile].y;
            CHECK(dx < -1 || dx > 1 || dy < -1 || dy > 1);
        }
    }
    for (unsigned s = 0; s < g->nplayers; s++)
        for (unsigned k = 0; k < CC_PIECE_KIND_COUNT; k++)
            CHECK(on_board[s][k] + cc_supply_count(&g->players[s], (enum cc_piece_kind)k) ==
                  cc_figures_at_start(&g->options, k, rules->followers, rules->stables));
    return CC_OK;
}

/*
 * The hand variant (discovery): no drawn tile and no draw phase; the first tiles of a
 * standard pile removed; every tile of the pile accounted for (placed, set aside, removed,
 * in a hand, or still in the pile); full hands while the pile lasts; the seat to move holds
 * a tile and every one of its tiles fits (set-asides happen at the start of the turn); a
 * finished game leaves no tile in any hand.
 */
static enum cc_status check_hand(const struct cc_game *g, const struct cc_tileset *ts, int *where)
{
    CHECK(g->ruleset == CC_RULESET_DISCOVERY);
    CHECK(g->drawn == CC_NO_TILE);
    CHECK(g->phase == CC_PHASE_PLACE || g->phase == CC_PHASE_FINISHED);
    unsigned removals = g->custom_deck ? 0 : cc_hand_removals(g->nplayers);
    if (removals > g->deck_len) removals = g->deck_len;
    CHECK(g->nremoved == removals);
    for (unsigned i = 0; i < g->nremoved; i++) CHECK(g->removed[i] == g->deck[i]);
    /* Per tile type: drawn from the pile minus placed, set aside, removed and held is 0. */
    int count[CC_MAX_TILE_TYPES] = {0};
    for (unsigned i = 0; i < g->deck_pos; i++) count[g->deck[i]]++;
    for (unsigned i = 1; i < g->nboard; i++) {
        CHECK(g->board[i].type < ts->ntypes);
        count[g->board[i].type]--;
    }
    for (unsigned i = 0; i < g->ndiscarded; i++) count[g->discarded[i]]--;
    for (unsigned i = 0; i < g->nremoved; i++) count[g->removed[i]]--;
    unsigned held = 0;
    for (unsigned s = 0; s < g->nplayers; s++) {
        const uint8_t *hand = g->players[s].hand;
        unsigned n = cc_hand_count(&g->players[s]);
        for (unsigned k = 0; k < CC_HAND_SIZE; k++) {
            CHECK((hand[k] != CC_NO_TILE) == (k < n)); /* held tiles come first */
            if (k >= n) continue;
            CHECK(hand[k] < ts->ntypes);
            count[hand[k]]--;
        }
        if (g->deck_pos < g->deck_len && !cc_seat_resigned(g, s)) CHECK(n == CC_HAND_SIZE);
        if (cc_seat_resigned(g, s)) CHECK(n == 0); /* set aside at resignation */
        held += n;
    }
    for (unsigned t = 0; t < CC_MAX_TILE_TYPES; t++) CHECK(count[t] == 0);
    CHECK((unsigned)(g->nboard - 1) + g->ndiscarded + g->nremoved + held == g->deck_pos);
    if (g->phase == CC_PHASE_FINISHED) {
        /* Ended by resignation (resign.c): the last seat in may still hold tiles. */
        if (cc_game_result(g) != CC_RESULT_RESIGNATION)
            CHECK(held == 0 && g->deck_pos == g->deck_len);
    } else {
        CHECK(g->players[g->seat].hand[0] != CC_NO_TILE); /* (that they fit: after the board) */
    }
    return CC_OK;
}

enum cc_status cc_game_check_where(const struct cc_game *g, int *where)
{
    const struct cc_rules *rules = cc_rules_of((enum cc_ruleset)g->ruleset);
    CHECK(rules != NULL);
    const struct cc_tileset *ts = cc_tileset_get((enum cc_ruleset)g->ruleset);
    CHECK(g->nplayers >= CC_MIN_PLAYERS && g->nplayers <= cc_max_players(&g->options));
    CHECK(cc_options_in_range(&g->options));
    CHECK(cc_modules_switched_on(g));
    CHECK(g->options.draw <= CC_DRAW_HAND);
    CHECK(g->seat < g->nplayers && g->turn >= 1);
    /* Resignations (resign.c): seats of the game; while it runs two or more are in and the
     * seat to move is one of them. */
    CHECK((g->resigned >> g->nplayers) == 0);
    if (g->phase != CC_PHASE_FINISHED)
        CHECK(!cc_seat_resigned(g, g->seat) && (cc_seats_in(g) & (cc_seats_in(g) - 1)) != 0);
    CHECK(g->deck_len <= CC_MAX_DECK && g->deck_pos <= g->deck_len);
    for (unsigned i = 0; i < g->deck_len; i++) CHECK(g->deck[i] < ts->ntypes);
    CHECK(g->ndiscarded <= g->deck_pos);
    for (unsigned i = 0; i < g->ndiscarded; i++) CHECK(g->discarded[i] < ts->ntypes);
    CHECK(g->start >= -1 && g->start < ts->ntypes);
    bool hand = g->options.draw == CC_DRAW_HAND;
    switch (g->phase) {
    case CC_PHASE_DRAW:
        CHECK(g->drawn == CC_NO_TILE && g->deck_pos < g->deck_len);
        break;
    case CC_PHASE_PLACE:
        CHECK(hand || (g->drawn < ts->ntypes && g->deck_pos > 0)); /* hand: check_hand */
        break;
    case CC_PHASE_FINISHED:
        CHECK(g->drawn == CC_NO_TILE);
        break;
    default:
        return CC_ERR_CORRUPT;
    }
    /* Every tile drawn so far was placed, set aside, or is the tile in hand. */
    CHECK(g->nboard >= 1 && g->nboard <= CC_MAX_BOARD);
    /* A turn is one placement: turn n is under way with n tiles on the board; the last
     * placement of a game does not start another turn. */
    if (g->phase != CC_PHASE_FINISHED)
        CHECK(g->turn == g->nboard);
    else
        CHECK(g->turn == g->nboard || g->turn + 1 == g->nboard);
    if (hand) {
        enum cc_status hs = check_hand(g, ts, where);
        if (hs != CC_OK) return hs;
    } else {
        CHECK((unsigned)(g->nboard - 1) + g->ndiscarded + (g->phase == CC_PHASE_PLACE) ==
              g->deck_pos);
        if (g->phase == CC_PHASE_PLACE) CHECK(g->deck[g->deck_pos - 1] == g->drawn);
        /* Without the hand variant no tile is removed or held. */
        CHECK(g->nremoved == 0);
        for (unsigned s = 0; s < g->nplayers; s++)
            CHECK(g->players[s].hand[0] == CC_NO_TILE && g->players[s].hand[1] == CC_NO_TILE);
    }
    CHECK(g->river_open_side == 0xFF || (g->river_open_side < 4 && g->river_tile < g->nboard));
    CHECK(g->river_last_turn <= 2);
    /* The builder's extra turn (traders.c): due only within a placement; an extra turn only
     * in a game with builders. */
    CHECK(g->builder_due == 0 && g->extra_turn <= 1);
    CHECK(!g->extra_turn || cc_figure_in_game(g, CC_PIECE_BUILDER));
    enum cc_status st = check_board(g, where);
    if (st != CC_OK) return st;
    /* Hand variant: every tile of the seat to move fits somewhere (checked once the
     * frontier is known to be sound). */
    if (hand && g->phase != CC_PHASE_FINISHED)
        for (unsigned k = 0; k < CC_HAND_SIZE; k++) {
            uint8_t t = g->players[g->seat].hand[k];
            CHECK(t == CC_NO_TILE || cc_tile_fits_somewhere(g, t));
        }
    st = check_pieces(g, rules, where);
    if (st != CC_OK) return st;
    /* Harvest tokens are neither made nor lost: supply plus holdings is the full stock. */
    for (int c = 0; c < CC_CROP_COUNT; c++) {
        unsigned held = g->harvest_supply[c];
        for (unsigned s = 0; s < CC_MAX_PLAYERS; s++) held += g->players[s].harvest[c];
        CHECK(held == (g->ruleset == CC_RULESET_HILLS ? cc_hills_token_total(c) : 0));
    }
    unsigned columns = cc_game_columns(g);
    bool goods = cc_figure_in_game(g, CC_PIECE_BUILDER); /* traders */
    for (unsigned s = 0; s < CC_MAX_PLAYERS; s++) {
        const struct cc_player *p = &g->players[s];
        int sum = 0;
        for (int k = 0; k < CC_GOODS_COUNT; k++) CHECK(goods || p->goods[k] == 0);
        for (int c = 0; c < CC_COL_COUNT; c++) {
            CHECK(p->columns[c] >= 0);
            CHECK(p->columns[c] == 0 || (columns & (1u << c)));
            sum += p->columns[c];
        }
        CHECK(sum == p->score);
        if (s >= g->nplayers) CHECK(p->score == 0 && p->followers == 0);
    }
    return CC_OK;
}

enum cc_status cc_game_check(const struct cc_game *g)
{
    int where;
    return cc_game_check_where(g, &where);
}
