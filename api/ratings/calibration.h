/* calibration.h: proof that the ratings mean something (issue 25, item 6): players with
 * hidden strengths play simulated 2- and 4-seat rated games whose results are drawn from
 * those strengths, fed through the production update (ratings_update_game); the report
 * says how well the estimated ratings rank the players and predict results. Deterministic
 * from the seed; no I/O (the bench program and the unit test print or check it). */
#ifndef API_CALIBRATION_H
#define API_CALIBRATION_H

#include <stdint.h>

#include "nodiscard.h"

#define CALIBRATION_BINS 10 /* deciles of the predicted win probability */

/* What to simulate. */
struct calibration_params {
    uint64_t seed;       /* everything random follows from it */
    int players;         /* players, at least 4 */
    int games;           /* rated games in all, at least 10 */
    int four_seat_share; /* percent of the games played at 4-seat tables (the rest 2-seat) */
    double spread;       /* standard deviation of the hidden strengths (rating points) */
    int days;            /* the games are spread evenly over this many days */
};

/* One decile of the 2-seat games, by the win probability predicted before the game. */
struct calibration_bin {
    int games;        /* games in the decile */
    double predicted; /* mean predicted probability that the first-drawn seat wins */
    double observed;  /* the share of them it won */
};

/* What the simulation measured. */
struct calibration_report {
    double spearman;         /* rank correlation of hidden strength and final rating */
    double spearman_settled; /* the same over players no longer provisional */
    int settled;             /* players no longer provisional at the end */
    int two_seat_games;      /* 2-seat games played */
    int four_seat_games;     /* 4-seat games played */
    struct calibration_bin bins[CALIBRATION_BINS]; /* 2-seat games in equal-count deciles */
    double worst_gap;           /* largest |predicted - observed| of a decile (0..1) */
    double pairs_right;         /* 4-seat: share of seat pairs the ratings before the game ordered
                                   as they finished (chance 0.5) */
    double pairs_right_hidden;  /* the same ordered by hidden strengths: the best possible */
    double winner_right;        /* 4-seat: share of tables won by the best-rated seat (chance
                                   0.25) */
    double winner_right_hidden; /* the same for the strongest hidden seat */
    double mean_deviation;      /* mean deviation at the end */
    double rms_error;           /* root mean square of (rating - strength), both centred:
                                   the error the deviations claim to measure */
    double worst_gap_no_rd;     /* worst_gap with predictions from the ratings alone (the
                                   deviations left out): which of the two is off */
    double worst_gap_rss;       /* worst_gap with Glickman's combined deviation (the root sum
                                   of squares: glicko2_win_probability_rss) */
};

/*
 * Runs the simulation of `p` into *out: hidden strengths drawn from a normal distribution
 * around 1500 with p->spread; each game draws its seats uniformly among the players, its
 * 2-seat result with the logistic model of Glicko (P(a beats b) = 1 / (1 + 10^((b - a) /
 * 400))) and its 4-seat finishing order by Plackett-Luce with weights 10^(strength / 400)
 * (which gives the same model for any two seats taken alone); then updates the seats with
 * ratings_update_game() and the production parameters. Predictions are made before each
 * game's update. Returns 0, or -1 for parameters out of range or memory short (*out then
 * unspecified).
 */
int calibration_run(const struct calibration_params *p, struct calibration_report *out) NODISCARD;

#endif
