/* glicko2.h: Glicko-2 ratings (Glickman, "Example of the Glicko-2 system", 2013) with
 * Lichess's instant update: one update per rated game, the deviation growing by
 * fractional rating periods for the days since the last one, weighted results (a seat's
 * N-1 pairwise results of an N-seat game). Pure functions: no I/O, no heap, no globals. */
#ifndef API_GLICKO2_H
#define API_GLICKO2_H

#include "nodiscard.h"

#define GLICKO2_INITIAL_RATING     1500.0   /* a new player's rating */
#define GLICKO2_INITIAL_DEVIATION  350.0    /* a new player's deviation, also the ceiling */
#define GLICKO2_INITIAL_VOLATILITY 0.06     /* a new player's volatility */
#define GLICKO2_MIN_DEVIATION      45.0     /* the floor Lichess keeps (instant updates) */
#define GLICKO2_PROVISIONAL_ABOVE  110.0    /* provisional while the deviation is above */
#define GLICKO2_TAU                0.75     /* the system constant in production */
#define GLICKO2_PERIODS_PER_DAY    0.21436  /* Lichess's rating periods per day away */
#define GLICKO2_SCALE              173.7178 /* rating points per unit of the Glicko-2 scale */
#define GLICKO2_MAX_RESULTS        64       /* results of one update at most */
#define GLICKO2_CONVERGENCE        0.000001 /* the volatility iteration's tolerance */

/* A rating on the Glicko scale (1500 / 350). */
struct glicko2_rating {
    double rating;     /* r */
    double deviation;  /* RD */
    double volatility; /* sigma */
};

/* One result of an update: an opponent as rated before the game, the score against it. */
struct glicko2_result {
    struct glicko2_rating opponent; /* the opponent's rating before the game */
    double score;                   /* 1 win, 0.5 draw, 0 loss */
    double weight;                  /* its weight in the update: 1, or 1/(N-1) at N seats */
};

/* How an update runs. */
struct glicko2_params {
    double tau;           /* the system constant (GLICKO2_TAU; 0.5 in Glickman's example) */
    double min_deviation; /* the floor of a deviation after an update (0: none) */
};

enum glicko2_status {
    GLICKO2_OK = 0,
    GLICKO2_BAD_INPUT /* a value out of range (negative weight, score outside 0..1, ...) */
};

/* A new player's rating: 1500 / 350 / 0.06. */
struct glicko2_rating glicko2_initial(void);

/* The production parameters: tau 0.75, deviation floor GLICKO2_MIN_DEVIATION. */
struct glicko2_params glicko2_production(void);

/* 1 while `r` is provisional (deviation above GLICKO2_PROVISIONAL_ABOVE), else 0. */
int glicko2_provisional(const struct glicko2_rating *r);

/* Rating periods for `ms` milliseconds away (GLICKO2_PERIODS_PER_DAY a day; 0 when ms <= 0). */
double glicko2_periods(long long ms);

/*
 * `r` with its deviation grown by `periods` rating periods without a game:
 * sqrt(RD^2 + periods * (173.7178 sigma)^2), at most GLICKO2_INITIAL_DEVIATION. What a
 * rating's deviation is now, for reading and as an opponent's deviation in an update.
 */
struct glicko2_rating glicko2_aged(const struct glicko2_rating *r, double periods);

/*
 * The expected score of `a` against `b` in Glicko-2 (Glickman's E with b's deviation):
 * the probability that a beats b, counting a draw as half.
 */
double glicko2_expected(const struct glicko2_rating *a, const struct glicko2_rating *b);

/*
 * The prediction of a game between `a` and `b` with both deviations:
 * 1 / (1 + exp(-g(sqrt((phi_a^2 + phi_b^2) / 2)) (mu_a - mu_b))): the root mean square of
 * the two deviations. Measured (make bench-ratings): with one big table weighing one game
 * (each pairwise result 1/(N-1)) a deviation overstates its rating's error by about sqrt(2)
 * (centred rms error 54 against a mean deviation of 74), so that the root sum of squares
 * (glicko2_win_probability_rss) predicts too close to 0.5; the mean square predicts within
 * 2.4 points of every decile on 5 seeds of the half 2-seat, half 4-seat mix.
 */
double glicko2_win_probability(const struct glicko2_rating *a, const struct glicko2_rating *b);

/*
 * Glickman's combined prediction: 1 / (1 + exp(-g(sqrt(phi_a^2 + phi_b^2)) (mu_a - mu_b))),
 * for comparison in the calibration.
 */
double glicko2_win_probability_rss(const struct glicko2_rating *a, const struct glicko2_rating *b);

/*
 * One instant update of `player` by `n` weighted results (0 <= n <= GLICKO2_MAX_RESULTS),
 * `periods` rating periods after its last one (1 in Glickman's example; the days away
 * times GLICKO2_PERIODS_PER_DAY in instant updates): Glickman's steps 2-8 with each
 * result's terms in v and Delta multiplied by its weight, the deviation grown by
 * `periods` with the new volatility (Lichess's calculateNewRating), then kept between
 * params->min_deviation and GLICKO2_INITIAL_DEVIATION. With no result (or weights all
 * 0) only the deviation grows. Writes *out (which may be player) and returns GLICKO2_OK,
 * or GLICKO2_BAD_INPUT (and leaves *out alone) for a value out of range.
 */
enum glicko2_status glicko2_update(const struct glicko2_rating *player, double periods,
                                   const struct glicko2_result *results, int n,
                                   const struct glicko2_params *params,
                                   struct glicko2_rating *out) NODISCARD;

#endif
