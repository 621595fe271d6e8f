/* bot_internal.h: what the levels in other files (bot_hard.c) share of bot.c: the follow-ups
 * of a placement as the bots count them, the action they make, greedy's value of a position
 * and the deal of the tiles the mover cannot see; and what the analysis of a game
 * (bot_analysis.c) shares of bot_hard.c: its playout. Only core/bot*.c include it. */
#ifndef CC_BOT_INTERNAL_H
#define CC_BOT_INTERNAL_H

#include "bot.h"
#include "rng.h"

/* One follow-up choice of a placement: the fields of struct cc_action it sets. */
struct followup {
    uint8_t follow; /* enum cc_followup */
    uint8_t loc;    /* as in struct cc_action */
    uint8_t figure; /* follower: enum cc_piece_kind deployed */
    int16_t fx, fy; /* hike/withdraw: the square of the piece */
};

/* The follow-up choices of placement `p` (masks filled) of the seat to move of `g`, in the
 * order of enum cc_bot_level's comment; returns how many (at least 1: none). */
unsigned cc_bot_followups(const struct cc_game *g, const struct cc_placement *p,
                          struct followup out[CC_BOT_MAX_FOLLOWUPS]);

/* The action of placement `p` with follow-up `f` by the seat to move of `g`. */
void cc_bot_action(const struct cc_game *g, const struct cc_placement *p, const struct followup *f,
                   struct cc_action *a);

/* Greedy's value of `g` after a move of `seat`: projected margin over the best other seat
 * (with the builder, its turns in points). */
int cc_bot_value(const struct cc_game *g, unsigned seat);

/* Deals anew, from `rng`, the tiles the seat to move of `g` (a canonical copy) cannot see. */
void cc_bot_determinize(struct cc_game *g, struct cc_rng *rng);

/* sqrt and ln without libm (x >= 0; ln: x >= 1), as the searches' UCB1 needs them. */
double cc_bot_sqrt(double x);
double cc_bot_ln(double x);

/* The hard level's value of a position for `seat`: points it leads the best other seat by,
 * projected (cc_projected_scores()) plus what points do not show yet: figures in hand
 * (worth less as the turns run out), the seat to move's coming placement (the seat order),
 * the builder out (extra turns); and its share of the win by the tie rule if it ended so. */
struct cc_bot_eval {
    double margin; /* its value minus the best other seat's */
    double win;    /* 1 ahead, 0 behind, 1/k sharing the top with k-1 others */
};
void cc_bot_evaluate(const struct cc_game *g, unsigned seat, struct cc_bot_eval *out);

/* The hard level's search of scratch->root (cc_bot_moves() done): see cc_bot_think(). */
enum cc_status cc_bot_hard(struct cc_bot_scratch *s, const struct cc_bot_budget *b, uint64_t t0,
                           struct cc_rng *rng, struct cc_action *out) NODISCARD;

/* One playout of the hard level from scratch->root (cc_bot_moves() done): the unseen tiles
 * dealt anew from `rng`, move `a` applied, then a round of replies (each seat its best move
 * by the leaf value, as hard's iterations play them); the leaf value reached for the mover
 * into *out. Uses scratch->sim, plist and deep[0]. */
enum cc_status cc_bot_hard_playout(struct cc_bot_scratch *s, const struct cc_action *a,
                                   struct cc_rng *rng, struct cc_bot_eval *out) NODISCARD;

#endif
