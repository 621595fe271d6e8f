/* bot_analysis.h: the review of a finished game's moves (GET /v1/games/{id}/analysis): for one
 * placement, the mover's expected final margin after the move played and after the best move
 * found, from what the mover knew then, and a label for the points lost. */
#ifndef CC_ANALYSIS_H
#define CC_ANALYSIS_H

#include <stdint.h>

#include "bot.h"
#include "game.h"
#include "nodiscard.h"

/* Moves valued per position at most: the one played, the hard level's choice, and the best
 * others by the hard level's ranking of the position. */
#define CC_ANALYSIS_CANDIDATES 4

/* The budget without one given: hard's iterations, then deals per candidate. */
#define CC_ANALYSIS_DEFAULT_ITERATIONS 200
#define CC_ANALYSIS_DEFAULT_DEALS      48

/*
 * Labels by the loss (points of expected final margin the move played gave away against the
 * best move found): best below CC_LOSS_GOOD (the move found, or as good within the noise
 * of the deals), good below CC_LOSS_INACCURACY, inaccuracy below CC_LOSS_MISTAKE, mistake
 * below CC_LOSS_BLUNDER, blunder from there on.
 */
#define CC_LOSS_GOOD       0.5
#define CC_LOSS_INACCURACY 2.0
#define CC_LOSS_MISTAKE    5.0
#define CC_LOSS_BLUNDER    10.0

enum cc_move_label {
    CC_MOVE_BEST = 0,
    CC_MOVE_GOOD,
    CC_MOVE_INACCURACY,
    CC_MOVE_MISTAKE,
    CC_MOVE_BLUNDER,
    CC_MOVE_LABEL_COUNT
};

/* What bounds the review of one position (both fixed counts, never time: deterministic). */
struct cc_analysis_budget {
    uint32_t iterations; /* the hard level's search of the position (0 is taken as 1) */
    uint32_t deals;      /* deals of the unseen tiles each candidate is valued over (>= 1) */
};

/* The review of one placement. */
struct cc_move_review {
    uint8_t seat;               /* the mover */
    uint8_t label;              /* enum cc_move_label of loss */
    uint8_t candidates;         /* moves valued (the played one included) */
    double played;              /* expected final margin after the move played */
    double best;                /* after the best move found (>= played) */
    double loss;                /* best - played, >= 0 */
    struct cc_action best_move; /* the best move found (the played one when it is the best) */
};

/*
 * Reviews the placement `played` (legal) of the seat to move of `g` (place phase). The
 * position is taken as the mover saw it (the unseen tiles put in canonical order, as the
 * bots do: nothing of the future deck is read). The hard level searches it for
 * b->iterations; the candidates (CC_ANALYSIS_CANDIDATES at most: `played`, hard's choice,
 * the next best by hard's ranking) are then each valued over the same b->deals deals of
 * the unseen tiles: the move, a round of replies (each seat its best move by hard's leaf
 * value), and the mover's leaf value there (cc_bot_evaluate's margin: projected final
 * score, figures in hand and the seat to move counted, minus the best other seat's); the
 * mean is the expected final margin. A pure function of (g as the mover sees it, played,
 * b, seed); allocates nothing (the search is in `scratch`). Fails with CC_ERR_WRONG_PHASE
 * outside the place phase, as cc_bot_think() otherwise, and CC_ERR_CORRUPT when `played`
 * does not apply.
 */
enum cc_status cc_analyse_move(const struct cc_game *g, const struct cc_action *played,
                               const struct cc_analysis_budget *b, uint64_t seed,
                               struct cc_bot_scratch *scratch,
                               struct cc_move_review *out) NODISCARD;

/* The label of a loss (the thresholds above). */
enum cc_move_label cc_move_label_of(double loss);

/* The label's stable name ("best", "good", "inaccuracy", "mistake", "blunder"), or NULL. */
const char *cc_move_label_name(enum cc_move_label label);

#endif
