/* resign.c: a seat resigns: its pieces leave, later turns skip it, it ranks last.
 *
 * The rules, as decided here (the contract says only: its pieces leave the board without
 * scoring, later turns skip it, it ranks below every seat still in, and with one seat
 * left in the game finishes and that seat wins):
 * - Any seat still in may resign at any time while the game runs, whoever's turn it is.
 * - Its pieces (followers, and in hills its stables) leave the board at once and score
 *   nothing, each with a CC_EV_PIECE_REMOVED; they go back to its supply (so the supply
 *   invariants of check.c hold), which it never uses again. A feature it held is then
 *   held by whoever else stands on it, or by nobody.
 * - What it has scored stays its score, and in hills its harvest tokens stay its own (they
 *   are not on the board) and count at the end as everybody's do; it ranks last however
 *   many points it has: cc_winners() considers only the seats still in.
 * - A tile the seat to move has drawn and not yet placed goes back on top of the pile
 *   (unchanged deck order: the next seat draws it; everybody saw it drawn, so nobody
 *   learns anything new). In the hand-of-two variant the seat's hand tiles are set aside
 *   (CC_EV_TILE_DISCARDED each: they were face up), like tiles that fit nowhere. When the
 *   resignation of another seat ends the game, a tile the last seat in has drawn goes back
 *   on the pile as well (unplayed; its hand tiles stay in its hand).
 * - The seat to move resigning passes the turn to the next seat still in, within the
 *   same turn number (a turn is one placement: check.c's turn == nboard stays true); in
 *   the hand variant that seat's turn starts as after a placement (its unfit tiles set
 *   aside and replaced; the game ends if no seat holds a tile).
 * - With one seat left in, the game finishes: the final scoring runs first (the board's
 *   unfinished features score for whoever still stands on them, as at a normal end, so
 *   the scores shown are final scores), then CC_EV_GAME_FINISHED with that seat as the
 *   winner. cc_game_result() tells this end (CC_RESULT_RESIGNATION) from a completed one.
 * - Turn advance (game.c) and the hand variant's turn search (hand.c: a resigned seat
 *   holds no tile) skip resigned seats.
 * - Snapshots (snapshot.c) write the mask only when some seat resigned, so games without
 *   a resignation encode exactly as before and old snapshots decode unchanged.
 */
#include <string.h>

#include "board.h"
#include "game.h"
#include "hand.h"
#include "modules.h"
#include "rules.h"

unsigned cc_seats_in(const struct cc_game *g)
{
    return ((1u << g->nplayers) - 1u) & ~(unsigned)g->resigned;
}

uint8_t cc_next_seat(const struct cc_game *g, unsigned seat)
{
    for (unsigned k = 1; k <= g->nplayers; k++) {
        unsigned s = (seat + k) % g->nplayers;
        if (!cc_seat_resigned(g, s)) return (uint8_t)s;
    }
    return (uint8_t)seat;
}

/* Number of bits set in `m`. */
static unsigned bits(unsigned m)
{
    unsigned n = 0;
    for (; m; m &= m - 1) n++;
    return n;
}

enum cc_result cc_game_result(const struct cc_game *g)
{
    if (g->phase != CC_PHASE_FINISHED) return CC_RESULT_NONE;
    return bits(cc_seats_in(g)) == 1 ? CC_RESULT_RESIGNATION : CC_RESULT_COMPLETED;
}

/* Every piece of `seat` leaves the board, back to its supply, with an event each. */
static void remove_pieces(struct cc_game *g, unsigned seat, struct cc_events *ev)
{
    for (int i = 0; i < CC_MAX_PIECES; i++) {
        struct cc_piece *pc = &g->pieces[i];
        if (!pc->used || pc->seat != seat) continue;
        (*cc_supply_of(&g->players[seat], (enum cc_piece_kind)pc->kind))++;
        struct cc_event *e = cc_emit(ev, CC_EV_PIECE_REMOVED);
        if (e) {
            e->seat = (uint8_t)seat;
            e->tile = g->board[pc->tile].type;
            e->x = g->board[pc->tile].x;
            e->y = g->board[pc->tile].y;
            e->loc = pc->loc;
            e->kind = pc->kind;
            e->figure = pc->kind;
        }
        cc_piece_remove(g, pc);
    }
}

/* Hand variant: the seat's hand tiles are set aside. */
static void set_aside_hand(struct cc_game *g, unsigned seat, struct cc_events *ev)
{
    struct cc_player *p = &g->players[seat];
    for (unsigned k = 0; k < CC_HAND_SIZE; k++) {
        if (p->hand[k] == CC_NO_TILE) continue;
        g->discarded[g->ndiscarded++] = p->hand[k];
        struct cc_event *e = cc_emit(ev, CC_EV_TILE_DISCARDED);
        if (e) {
            e->seat = (uint8_t)seat;
            e->tile = p->hand[k];
        }
        p->hand[k] = CC_NO_TILE;
    }
}

enum cc_status cc_game_resign(struct cc_game *g, uint8_t seat, struct cc_events *ev)
{
    if (g->phase == CC_PHASE_FINISHED) return CC_ERR_GAME_FINISHED;
    if (seat >= g->nplayers) return CC_ERR_NOT_YOUR_TURN;
    if (cc_seat_resigned(g, seat)) return CC_ERR_ALREADY_RESIGNED;

    bool to_move = seat == g->seat;
    bool hand = cc_hand_mode(g);
    uint8_t put_back = CC_NO_TILE;
    if (to_move && !hand && g->phase == CC_PHASE_PLACE) {
        /* The drawn tile goes back on top of the pile. */
        put_back = g->drawn;
        g->deck_pos--;
        g->drawn = CC_NO_TILE;
        g->phase = CC_PHASE_DRAW;
    }
    struct cc_event *e = cc_emit(ev, CC_EV_SEAT_RESIGNED);
    if (e) {
        e->seat = seat;
        e->tile = put_back;
    }
    g->resigned = (uint8_t)(g->resigned | (1u << seat));
    remove_pieces(g, seat, ev);
    if (hand) set_aside_hand(g, seat, ev);

    if (bits(cc_seats_in(g)) <= 1) {
        /* The last seat in had drawn: that tile goes back on the pile too (unplayed). */
        if (!hand && g->phase == CC_PHASE_PLACE) {
            g->deck_pos--;
            g->drawn = CC_NO_TILE;
        }
        cc_finish_game(g, ev);
        return CC_OK;
    }
    if (!to_move) return CC_OK;
    g->extra_turn = 0; /* a builder's extra turn (traders.c) ends with its seat */
    if (!hand) {
        g->seat = cc_next_seat(g, seat);
        return CC_OK;
    }
    /* Hand variant: the next seat's turn starts; none holding a tile ends the game. */
    if (!cc_hand_next_turn(g, cc_next_seat(g, seat), ev)) {
        g->seat = seat;
        cc_finish_game(g, ev);
    }
    return CC_OK;
}
