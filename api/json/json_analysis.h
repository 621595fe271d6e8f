/* json_analysis.h: the body of GET /v1/games/{id}/analysis (json_analysis.c), written once
 * by the analysis job and stored (0036). Pure: no I/O. */
#ifndef API_JSON_ANALYSIS_H
#define API_JSON_ANALYSIS_H

#include "bot_analysis.h"
#include "json_out.h"

/* One reviewed placement: the review and what names it in the game. */
struct json_review {
    struct cc_move_review r; /* the review */
    unsigned turn;           /* the engine's turn counter at the position */
    int x, y;                /* the square of the move played */
};

/* What the body is written from. */
struct json_analysis_src {
    const char *id;                   /* the game's id */
    const struct cc_game *created;    /* the game as created (the placements' bodies name its
                                         tiles and ruleset) */
    int nplayers;                     /* seats */
    const struct json_review *moves;  /* every placement, in order */
    int nmoves;                       /* entries in moves */
    struct cc_analysis_budget budget; /* the budget each position was reviewed with */
};

/*
 * Writes the analysis of `src` into `o`: game, iterations, deals, thresholds (the loss at
 * which each label from good on begins), placements (each: turn, seat, x, y, played_margin,
 * best_margin, loss, label, best: the best move found as a POST /placements body) and
 * seats (each: seat, placements, average_loss, and the count of each label). Margins and
 * losses in points, two decimals.
 */
void json_analysis_write(struct json_out *o, const struct json_analysis_src *src);

#endif
