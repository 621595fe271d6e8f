/* game.c: creating a game, and the turn: draw, place, follow-up, score, next. */
#include <string.h>

#include "board.h"
#include "game.h"
#include "hand.h"
#include "modules.h"
#include "placement.h"
#include "rng.h"
#include "rules.h"

/* Appends `n` copies of `type` to the pile. */
static void pile_add(uint8_t *pile, unsigned *len, uint8_t type, unsigned n)
{
    for (unsigned i = 0; i < n; i++) pile[(*len)++] = type;
}

void cc_pile_remove(uint8_t *pile, unsigned *len, uint8_t type)
{
    for (unsigned i = 0; i < *len; i++) {
        if (pile[i] != type) continue;
        memmove(pile + i, pile + i + 1, *len - i - 1);
        (*len)--;
        return;
    }
}

/* Whether tiles of set `set` belong to the land pile of a game with options `o`: the base
 * set, and the sets of the modules on that have no pile of their own. */
static bool in_land(unsigned set, const struct cc_options *o)
{
    const struct cc_module *m = cc_module_of_set(set);
    if (set == CC_SET_BASE) return true;
    return m && !m->deck && cc_module_on(m, o);
}

/* The shuffled standard pile (start tile taken out): the piles of the modules on that
 * have one first (the River), each shuffled before the land, then the land. */
static void build_standard_deck(struct cc_game *g, const struct cc_tileset *ts, uint8_t start,
                                uint64_t seed)
{
    struct cc_rng rng;
    cc_rng_seed(&rng, seed);
    uint8_t land[CC_MAX_DECK], front[CC_MAX_DECK];
    unsigned nland = 0, nfront = 0;
    for (int i = 0; i < ts->ntypes; i++) {
        const struct cc_tile_type *t = &ts->types[i];
        if (in_land(t->set, &g->options)) pile_add(land, &nland, (uint8_t)i, t->count);
    }
    cc_pile_remove(land, &nland, start);
    for (unsigned k = 0; k < CC_MODULE_COUNT; k++) {
        const struct cc_module *m = cc_module_get((enum cc_module_id)k);
        if (!m->deck || !cc_module_on(m, &g->options)) continue;
        unsigned n = 0;
        m->deck(ts, start, &rng, front + nfront, &n, land, &nland);
        nfront += n;
    }
    cc_rng_shuffle(&rng, land, nland);
    memcpy(g->deck, front, nfront);
    memcpy(g->deck + nfront, land, nland);
    g->deck_len = (uint16_t)(nfront + nland);
}

/* The start tile when the setup names none: the first module on that has one, else the
 * ruleset's. */
static uint8_t default_start(const struct cc_tileset *ts, const struct cc_options *o)
{
    for (unsigned k = 0; k < CC_MODULE_COUNT; k++) {
        const struct cc_module *m = cc_module_get((enum cc_module_id)k);
        int t = m->start_type && cc_module_on(m, o) ? m->start_type(ts) : -1;
        if (t >= 0) return (uint8_t)t;
    }
    return ts->start_type;
}

enum cc_status cc_game_new(struct cc_game *g, const struct cc_setup *setup, struct cc_events *ev)
{
    (void)ev;
    const struct cc_rules *rules = cc_rules_of((enum cc_ruleset)setup->ruleset);
    if (!rules) return CC_ERR_BAD_RULESET;
    const struct cc_tileset *ts = cc_tileset_get((enum cc_ruleset)setup->ruleset);
    if (setup->nplayers < CC_MIN_PLAYERS || setup->nplayers > CC_MAX_PLAYERS)
        return CC_ERR_BAD_PLAYER_COUNT;
    const struct cc_options *o = &setup->options;
    int bad, other;
    enum cc_status ost = cc_options_check((enum cc_ruleset)setup->ruleset, o, &bad, &other);
    if (ost != CC_OK) return ost;
    if (setup->nplayers > cc_max_players(o)) return CC_ERR_BAD_PLAYER_COUNT;
    if (setup->start >= ts->ntypes || setup->start < -1) return CC_ERR_UNKNOWN_TILE;
    if (setup->deck_len > CC_MAX_DECK) return CC_ERR_DECK_TOO_LONG;
    for (int i = 0; i < setup->deck_len; i++)
        if (setup->deck[i] >= ts->ntypes) return CC_ERR_UNKNOWN_TILE;
    /* Tiles of an expansion exist only in games with it. */
    if (setup->start >= 0) {
        enum cc_status st = cc_module_tile_allowed(&ts->types[setup->start], o);
        if (st != CC_OK) return st;
    }
    for (int i = 0; i < setup->deck_len; i++) {
        enum cc_status st = cc_module_tile_allowed(&ts->types[setup->deck[i]], o);
        if (st != CC_OK) return st;
    }

    memset(g, 0, sizeof *g);
    g->ruleset = setup->ruleset;
    g->nplayers = setup->nplayers;
    g->options = *o;
    cc_modules_switch_on(g);
    g->seed = setup->seed;
    g->start = setup->start;
    g->drawn = CC_NO_TILE;
    uint8_t start = setup->start >= 0 ? (uint8_t)setup->start : default_start(ts, o);
    if (setup->deck_len >= 0) {
        g->custom_deck = 1;
        g->deck_len = (uint16_t)setup->deck_len;
        memcpy(g->deck, setup->deck, (size_t)setup->deck_len);
    } else {
        build_standard_deck(g, ts, start, setup->seed);
    }
    for (unsigned s = 0; s < g->nplayers; s++) {
        for (unsigned k = 0; k < CC_PIECE_KIND_COUNT; k++)
            *cc_supply_of(&g->players[s], (enum cc_piece_kind)k) =
                (uint8_t)cc_figures_at_start(o, k, rules->followers, rules->stables);
        g->players[s].hand[0] = g->players[s].hand[1] = CC_NO_TILE;
    }
    if (rules->init) rules->init(g);
    /* The board is empty already: the memset above is cc_board_clear() and more. */
    cc_board_place(g, start, 0, 0, 0, NULL);
    for (unsigned k = 0; k < CC_MODULE_COUNT; k++) { /* on or off: each sets its state */
        const struct cc_module *m = cc_module_get((enum cc_module_id)k);
        if (m->init) m->init(g, &ts->types[start]);
    }
    g->turn = 1;
    g->seat = 0;
    g->phase = g->deck_len > 0 ? CC_PHASE_DRAW : CC_PHASE_FINISHED;
    /* The hand variant has no draw step: the hands are dealt now and the first turn begins. */
    if (cc_hand_mode(g) && g->phase != CC_PHASE_FINISHED && !cc_hand_setup(g, ev))
        cc_finish_game(g, ev);
    return CC_OK;
}

void cc_finish_game(struct cc_game *g, struct cc_events *ev)
{
    cc_rules_of((enum cc_ruleset)g->ruleset)->final_scoring(g, g->players, ev);
    cc_modules_final_scoring(g, g->players, ev);
    g->phase = CC_PHASE_FINISHED;
    g->drawn = CC_NO_TILE;
    struct cc_event *e = cc_emit(ev, CC_EV_GAME_FINISHED);
    if (e) e->seats = (uint8_t)cc_winners(g);
}

static enum cc_status apply_draw(struct cc_game *g, struct cc_events *ev)
{
    while (g->deck_pos < g->deck_len) {
        uint8_t t = g->deck[g->deck_pos++];
        if (cc_tile_fits_somewhere(g, t)) {
            g->drawn = t;
            g->phase = CC_PHASE_PLACE;
            struct cc_event *e = cc_emit(ev, CC_EV_TILE_DRAWN);
            if (e) {
                e->seat = g->seat;
                e->tile = t;
            }
            return CC_OK;
        }
        g->discarded[g->ndiscarded++] = t;
        struct cc_event *e = cc_emit(ev, CC_EV_TILE_DISCARDED);
        if (e) {
            e->seat = g->seat;
            e->tile = t;
        }
    }
    /* The pile ran out with tiles set aside: the game ends. */
    cc_finish_game(g, ev);
    return CC_OK;
}

/* Checks the follow-up of a placement that has been found legal; changes nothing. */
static enum cc_status check_followup(const struct cc_game *g, const struct cc_action *a)
{
    const struct cc_rules *rules = cc_rules_of((enum cc_ruleset)g->ruleset);
    const struct cc_tile_type *t = &cc_types(g)[cc_turn_tile(g, a)];
    switch (a->follow) {
    case CC_FOLLOW_NONE:
        return CC_OK;
    case CC_FOLLOW_FOLLOWER: {
        /* A figure from the supply: a follower, or one an expansion brings (a->figure). */
        if (a->loc >= CC_LOC_COUNT) return CC_ERR_BAD_LOCATION;
        if (!cc_figure_in_game(g, a->figure)) return CC_ERR_FIGURE_NOT_IN_GAME;
        unsigned f = t->slot_feature[a->rot][a->loc];
        if (f == CC_NO_FEATURE) return CC_ERR_NO_FEATURE_THERE;
        unsigned kind = t->features[f].kind;
        enum cc_status st = cc_modules_check_deploy(g, kind);
        if (st != CC_OK) return st;
        if (!cc_piece_is_follower(a->figure))
            return cc_module_of_figure(g, a->figure)->check_figure(g, a);
        if (!(rules->follower_kinds & (1u << kind))) return CC_ERR_NOT_ALLOWED_HERE;
        if (cc_supply_count(&g->players[a->seat], (enum cc_piece_kind)a->figure) == 0)
            return a->figure == CC_PIECE_FOLLOWER ? CC_ERR_NO_FOLLOWERS_LEFT
                                                  : CC_ERR_NO_FIGURE_LEFT;
        if (cc_feature_would_be_occupied(g, t, f, a->x, a->y, a->rot))
            return CC_ERR_FEATURE_OCCUPIED;
        return CC_OK;
    }
    case CC_FOLLOW_STABLE:
    case CC_FOLLOW_HIKE:
    case CC_FOLLOW_WITHDRAW:
        if (!rules->check_followup) return CC_ERR_FOLLOWUP_NOT_IN_RULESET;
        return rules->check_followup(g, a);
    default: {
        /* A follow-up of an expansion the game has on (its module's). */
        const struct cc_module *m = cc_module_of_followup(g, a->follow);
        return m ? m->check_followup(g, a) : CC_ERR_BAD_LOCATION;
    }
    }
}

static void deploy(struct cc_game *g, unsigned tile, const struct cc_action *a,
                   struct cc_events *ev)
{
    const struct cc_tile_type *t = cc_placed_type(g, tile);
    enum cc_piece_kind figure = (enum cc_piece_kind)a->figure;
    struct cc_piece *pc = cc_piece_add(g, a->seat, figure, tile, a->loc);
    (*cc_supply_of(&g->players[a->seat], figure))--;
    struct cc_event *e =
        cc_emit_piece(ev, CC_EV_FOLLOWER_DEPLOYED, a, t->features[pc->feature].kind);
    if (e) {
        e->tile = g->board[tile].type;
        e->figure = (uint8_t)figure;
    }
}

static enum cc_status apply_place(struct cc_game *g, const struct cc_action *a,
                                  struct cc_events *ev)
{
    if (a->rot > 3) return CC_ERR_BAD_ROTATION;
    if (cc_hand_mode(g)) {
        enum cc_status hs = cc_hand_check_tile(g, a);
        if (hs != CC_OK) return hs;
    }
    uint8_t type = cc_turn_tile(g, a); /* the drawn tile, or the named hand tile */
    enum cc_status st = cc_check_position(g, type, a->x, a->y, a->rot);
    if (st != CC_OK) return st;
    st = check_followup(g, a);
    if (st != CC_OK) return st;

    /* Everything is checked: from here on nothing fails. */
    uint16_t joined;
    unsigned tile = cc_board_place(g, type, a->x, a->y, a->rot, &joined);
    struct cc_event *e = cc_emit(ev, CC_EV_TILE_PLACED);
    if (e) {
        e->seat = a->seat;
        e->tile = type;
        e->x = a->x;
        e->y = a->y;
        e->rot = a->rot;
    }
    cc_modules_placed(g, tile, joined);
    const struct cc_rules *rules = cc_rules_of((enum cc_ruleset)g->ruleset);
    /* A follow-up of the ruleset's own (stable, hike, withdraw), or of a module's. */
    const struct cc_module *mod =
        a->follow > CC_FOLLOW_WITHDRAW ? cc_module_of_followup(g, a->follow) : NULL;
    bool own_followup = a->follow != CC_FOLLOW_NONE && a->follow != CC_FOLLOW_FOLLOWER && !mod;
    if (a->follow == CC_FOLLOW_FOLLOWER) deploy(g, tile, a, ev);
    if (own_followup) rules->apply_followup(g, tile, a, false, ev);
    if (mod) mod->apply_followup(g, tile, a, false, ev);
    rules->score_placement(g, tile, ev);
    if (own_followup) rules->apply_followup(g, tile, a, true, ev);
    if (mod) mod->apply_followup(g, tile, a, true, ev);

    g->drawn = CC_NO_TILE;
    if (cc_hand_mode(g)) {
        /* A replacement, then the next seat with a tile; the game ends when none holds one. */
        if (!cc_hand_end_turn(g, type, ev)) cc_finish_game(g, ev);
        return CC_OK;
    }
    /* A builder's extra turn (traders.c): the same seat again, unless the pile is empty. */
    bool again = cc_modules_turn_again(g, ev);
    if (g->deck_pos >= g->deck_len) {
        cc_finish_game(g, ev);
        return CC_OK;
    }
    if (!again) g->seat = cc_next_seat(g, g->seat); /* resigned seats are skipped (resign.c) */
    g->turn++;
    g->phase = CC_PHASE_DRAW;
    return CC_OK;
}

enum cc_status cc_game_apply(struct cc_game *g, const struct cc_action *a, struct cc_events *ev)
{
    if (a->kind == CC_ACTION_RESIGN) return cc_game_resign(g, a->seat, ev);
    if (g->phase == CC_PHASE_FINISHED) return CC_ERR_GAME_FINISHED;
    if (a->seat != g->seat) return CC_ERR_NOT_YOUR_TURN;
    switch (a->kind) {
    case CC_ACTION_DRAW:
        if (g->phase != CC_PHASE_DRAW) return CC_ERR_WRONG_PHASE;
        return apply_draw(g, ev);
    case CC_ACTION_PLACE:
        if (g->phase != CC_PHASE_PLACE) return CC_ERR_WRONG_PHASE;
        return apply_place(g, a, ev);
    default:
        return CC_ERR_WRONG_PHASE;
    }
}

void cc_projected_scores(const struct cc_game *g, struct cc_player out[CC_MAX_PLAYERS])
{
    memcpy(out, g->players, sizeof g->players);
    if (g->phase == CC_PHASE_FINISHED) return;
    cc_rules_of((enum cc_ruleset)g->ruleset)->final_scoring(g, out, NULL);
    cc_modules_final_scoring(g, out, NULL);
}

/* Bytes [from, to) of a game that cc_game_reset() leaves alone. */
struct skip {
    size_t from, to;
};

void cc_game_reset(struct cc_game *dst, const struct cc_game *src)
{
    /* One action places at most one tile (index nboard: its nodes are the next block of the
     * graph) and takes one square off the frontier (swapped with the last) while adding at
     * most three: nothing beyond these bounds changes. */
    size_t tiles = (size_t)src->nboard + 1, nodes = tiles * CC_MAX_TILE_FEATURES;
    size_t squares = (size_t)src->nfrontier + 4;
    if (tiles > CC_MAX_BOARD) tiles = CC_MAX_BOARD;
    if (nodes > CC_MAX_NODES) nodes = CC_MAX_NODES;
    if (squares > CC_MAX_FRONTIER) squares = CC_MAX_FRONTIER;
#define TAIL(field, used)                                                                          \
    {                                                                                              \
        offsetof(struct cc_game, field) + (used) * sizeof src->field[0],                           \
            offsetof(struct cc_game, field) + sizeof src->field                                    \
    }
    struct skip skips[] = {
        TAIL(board, tiles),
        TAIL(root, nodes),
        TAIL(next, nodes),
        TAIL(size, nodes),
        TAIL(open, nodes),
        TAIL(holders, nodes),
        TAIL(frontier, squares),
        TAIL(frontier_mask, squares),
        TAIL(frontier_want, squares),
        TAIL(frontier_nb, squares),
        TAIL(frontier_node, squares),
        TAIL(frontier_nnodes, squares),
        TAIL(frontier_rc, squares),
    };
#undef TAIL
    unsigned n = sizeof skips / sizeof skips[0];
    for (unsigned i = 1; i < n; i++) /* in the order of the fields, whatever it is */
        for (unsigned j = i; j > 0 && skips[j].from < skips[j - 1].from; j--) {
            struct skip t = skips[j];
            skips[j] = skips[j - 1];
            skips[j - 1] = t;
        }
    size_t at = 0;
    for (unsigned i = 0; i < n; i++) {
        memcpy((char *)dst + at, (const char *)src + at, skips[i].from - at);
        at = skips[i].to;
    }
    memcpy((char *)dst + at, (const char *)src + at, sizeof *dst - at);
}

unsigned cc_winners(const struct cc_game *g)
{
    unsigned in = cc_seats_in(g); /* resigned seats never win (resign.c) */
    int best = -32768;
    for (unsigned s = 0; s < g->nplayers; s++)
        if ((in >> s & 1u) && g->players[s].score > best) best = g->players[s].score;
    unsigned seats = 0;
    for (unsigned s = 0; s < g->nplayers; s++)
        if ((in >> s & 1u) && g->players[s].score == best) seats |= 1u << s;
    return seats;
}

unsigned cc_tiles_remaining(const struct cc_game *g)
{
    unsigned n = (unsigned)(g->deck_len - g->deck_pos);
    if (cc_hand_mode(g))
        for (unsigned s = 0; s < g->nplayers; s++) n += cc_hand_count(&g->players[s]);
    return n;
}

bool cc_game_uses_hand(const struct cc_game *g)
{
    /* The option is refused for every other ruleset at creation; the ruleset test keeps
     * a snapshot that says otherwise from being read as a hand game outside the engine. */
    return g->ruleset == CC_RULESET_DISCOVERY && cc_hand_mode(g);
}

static const char *const event_names[CC_EV_COUNT] = {
    "tile_drawn",   "tile_discarded", "tile_placed",        "follower_deployed",
    "stable_built", "hiker_moved",    "follower_withdrawn", "feature_scored",
    "final_scored", "game_finished",  "follower_returned",  "tiles_removed",
    "hand_dealt",   "seat_resigned",  "piece_removed",      "goods_taken",
    "extra_turn"};

static const char *const column_names[CC_COL_COUNT] = {
    "road",   "city",    "monastery", "farm",     "trail", "farmland", "hike",
    "stable", "harvest", "grassland", "mountain", "sea",   "goods"};

const char *cc_event_name(enum cc_event_type t)
{
    return (unsigned)t < CC_EV_COUNT ? event_names[t] : NULL;
}

const char *cc_column_name(enum cc_column c)
{
    return (unsigned)c < CC_COL_COUNT ? column_names[c] : NULL;
}
