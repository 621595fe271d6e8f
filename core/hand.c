/* hand.c: the hand-of-two variant of discovery: removed tiles, dealing, set-asides, turns. */
#include "hand.h"
#include "placement.h"
#include "rules.h"

unsigned cc_hand_removals(unsigned nplayers)
{
    /*
     * The printed table gives 1 for 5 players; with 83 tiles besides the start tile that
     * leaves an unequal number of turns, so (as docs/rules/discovery.md says) 3 are
     * removed for 5 players as for 4: 83 - 3 = 80 = 5 * 16.
     */
    switch (nplayers) {
    case 2:
        return 1;
    case 3:
        return 2;
    default:
        return 3;
    }
}

unsigned cc_hand_count(const struct cc_player *p)
{
    unsigned n = 0;
    for (unsigned k = 0; k < CC_HAND_SIZE; k++) n += p->hand[k] != CC_NO_TILE;
    return n;
}

enum cc_status cc_hand_check_tile(const struct cc_game *g, const struct cc_action *a)
{
    if (a->tile == CC_NO_TILE) return CC_ERR_TILE_REQUIRED;
    const struct cc_player *p = &g->players[g->seat];
    for (unsigned k = 0; k < CC_HAND_SIZE; k++)
        if (p->hand[k] == a->tile) return CC_OK;
    return CC_ERR_TILE_NOT_IN_HAND;
}

static bool pile_left(const struct cc_game *g)
{
    return g->deck_pos < g->deck_len;
}

/* The next tile of the pile goes to the end of `seat`'s hand (which has room). */
static void deal(struct cc_game *g, unsigned seat, struct cc_events *ev)
{
    struct cc_player *p = &g->players[seat];
    unsigned k = cc_hand_count(p);
    uint8_t t = g->deck[g->deck_pos++];
    p->hand[k] = t;
    struct cc_event *e = cc_emit(ev, CC_EV_HAND_DEALT);
    if (e) {
        e->seat = (uint8_t)seat;
        e->tile = t;
    }
}

/* Takes hand slot `k` out of `seat`'s hand; the tiles after it move up one slot. */
static uint8_t take(struct cc_game *g, unsigned seat, unsigned k)
{
    struct cc_player *p = &g->players[seat];
    uint8_t t = p->hand[k];
    for (unsigned i = k; i + 1 < CC_HAND_SIZE; i++) p->hand[i] = p->hand[i + 1];
    p->hand[CC_HAND_SIZE - 1] = CC_NO_TILE;
    return t;
}

/*
 * The start of `seat`'s turn: each hand tile that fits nowhere is set aside and replaced
 * from the pile at once (the replacement is checked in its turn). Returns whether the seat
 * holds a tile afterwards.
 *
 * Doubt: the rules check a hand "at the start of the player's turn"; with no draw action
 * that moment is the end of the previous action (or the game's creation), so the events
 * of these set-asides follow the previous player's turn, and a tile in another player's
 * hand may not fit for a while without being set aside until that player's turn comes.
 */
static bool prepare(struct cc_game *g, unsigned seat, struct cc_events *ev)
{
    struct cc_player *p = &g->players[seat];
    unsigned k = 0;
    while (k < CC_HAND_SIZE && p->hand[k] != CC_NO_TILE) {
        if (cc_tile_fits_somewhere(g, p->hand[k])) {
            k++;
            continue;
        }
        uint8_t t = take(g, seat, k);
        g->discarded[g->ndiscarded++] = t;
        struct cc_event *e = cc_emit(ev, CC_EV_TILE_DISCARDED);
        if (e) {
            e->seat = (uint8_t)seat;
            e->tile = t;
        }
        if (pile_left(g)) deal(g, seat, ev);
    }
    return p->hand[0] != CC_NO_TILE;
}

/* Finds the seat to move from `from` on, in seat order, skipping seats left without a tile;
 * false when every seat is left without one. A seat found empty after its set-asides means
 * the pile is empty, so one round decides. */
static bool find_turn(struct cc_game *g, unsigned from, struct cc_events *ev)
{
    for (unsigned k = 0; k < g->nplayers; k++) {
        unsigned s = (from + k) % g->nplayers;
        if (prepare(g, s, ev)) {
            g->seat = (uint8_t)s;
            return true;
        }
    }
    return false;
}

bool cc_hand_next_turn(struct cc_game *g, unsigned from, struct cc_events *ev)
{
    return find_turn(g, from, ev);
}

bool cc_hand_setup(struct cc_game *g, struct cc_events *ev)
{
    /* The removed tiles are the first of the shuffled pile; a custom deck loses none. */
    if (!g->custom_deck) {
        unsigned n = cc_hand_removals(g->nplayers);
        for (unsigned i = 0; i < n && pile_left(g); i++) {
            uint8_t t = g->deck[g->deck_pos++];
            g->removed[g->nremoved++] = t;
            struct cc_event *e = cc_emit(ev, CC_EV_TILES_REMOVED);
            if (e) e->tile = t;
        }
    }
    for (unsigned s = 0; s < g->nplayers; s++)
        for (unsigned k = 0; k < CC_HAND_SIZE && pile_left(g); k++) deal(g, s, ev);
    g->phase = CC_PHASE_PLACE;
    g->drawn = CC_NO_TILE;
    return find_turn(g, 0, ev);
}

/*
 * Doubts: when both hand tiles are of the placed type, the first one goes (the two are
 * alike); the replacement goes to the end of the hand. A skipped seat does not count a
 * turn: `turn` counts placements (turn n is under way with n tiles on the board).
 */
bool cc_hand_end_turn(struct cc_game *g, uint8_t type, struct cc_events *ev)
{
    unsigned seat = g->seat;
    struct cc_player *p = &g->players[seat];
    unsigned k = 0;
    while (k + 1 < CC_HAND_SIZE && p->hand[k] != type) k++;
    take(g, seat, k);
    if (pile_left(g)) deal(g, seat, ev);
    if (!find_turn(g, (seat + 1) % g->nplayers, ev)) {
        g->seat = (uint8_t)seat;
        return false;
    }
    g->turn++;
    return true;
}
