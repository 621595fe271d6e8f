/* bot_eval.c: the hard level's value of a position for one seat: the projected final margin
 * with what points do not show (figures in hand, who moves next, the builder), and the tie
 * rule. */
#include "bot_internal.h"
#include "hand.h"

/* Tuning (bench-ai measured it; see cc_bot_evaluate()). */
#ifndef HARD_FIGURE_POINTS
#define HARD_FIGURE_POINTS 2.0 /* a figure in hand with many turns left to place it */
#endif
#ifndef HARD_FIGURE_HALF
#define HARD_FIGURE_HALF 6.0 /* own turns left at which a figure in hand is worth half that */
#endif
#ifndef HARD_TEMPO_POINTS
#define HARD_TEMPO_POINTS 2.0 /* the seat to move: its placement is still to come */
#endif
#ifndef HARD_BUILDER_OUT_POINTS
#define HARD_BUILDER_OUT_POINTS 1.0 /* the builder on the board: extra turns to come */
#endif

/* Tiles still to be placed: the rest of the pile and every hand. */
static unsigned tiles_left(const struct cc_game *g)
{
    unsigned n = (unsigned)(g->deck_len - g->deck_pos);
    for (unsigned s = 0; cc_hand_mode(g) && s < g->nplayers; s++)
        for (unsigned k = 0; k < CC_HAND_SIZE; k++) n += g->players[s].hand[k] != CC_NO_TILE;
    if (g->phase == CC_PHASE_PLACE && !cc_hand_mode(g)) n++; /* the drawn tile */
    return n;
}

/* What seat s has beyond its projected score, in points. */
static double unseen_points(const struct cc_game *g, unsigned s, unsigned left, unsigned seats)
{
    double v = 0, turns = (double)left / seats; /* s's own turns still to come, about */
    unsigned hand = cc_supply_count(&g->players[s], CC_PIECE_FOLLOWER);
    if (cc_figure_in_game(g, CC_PIECE_LARGE))
        hand += cc_supply_count(&g->players[s], CC_PIECE_LARGE);
    if (cc_figure_in_game(g, CC_PIECE_STABLE))
        hand += cc_supply_count(&g->players[s], CC_PIECE_STABLE);
    double usable = hand < turns ? hand : turns; /* one figure a turn at most */
    v += HARD_FIGURE_POINTS * usable * turns / (turns + HARD_FIGURE_HALF);
    if (g->seat == s) v += HARD_TEMPO_POINTS;
    if (cc_figure_in_game(g, CC_PIECE_BUILDER) && g->players[s].builders == 0)
        v += HARD_BUILDER_OUT_POINTS;
    return v;
}

void cc_bot_evaluate(const struct cc_game *g, unsigned seat, struct cc_bot_eval *out)
{
    struct cc_player pl[CC_MAX_PLAYERS];
    cc_projected_scores(g, pl);
    bool over = g->phase == CC_PHASE_FINISHED;
    unsigned left = over ? 0 : tiles_left(g), seats = 0;
    for (unsigned s = 0; s < g->nplayers; s++) seats += !cc_seat_resigned(g, s);
    double mine = pl[seat].score, best = -1e9;
    if (!over && left) mine += unseen_points(g, seat, left, seats ? seats : 1);
    unsigned level = 0; /* other seats at `best` */
    for (unsigned s = 0; s < g->nplayers; s++) {
        if (s == seat || cc_seat_resigned(g, s)) continue;
        double v = pl[s].score;
        if (!over && left) v += unseen_points(g, s, left, seats);
        if (v > best) {
            best = v;
            level = 0;
        }
        level += v == best;
    }
    out->margin = mine - best;
    /* The tie rule (cc_winners()): the seats sharing the highest score share the win (a
     * share each, as bench-ai counts a tie half); a seat that resigned never wins. */
    if (cc_seat_resigned(g, seat) || out->margin < 0)
        out->win = 0;
    else
        out->win = out->margin > 0 ? 1 : 1.0 / (1 + level);
}
