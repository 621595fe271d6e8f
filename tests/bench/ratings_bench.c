/* ratings_bench.c: `make bench-ratings`: the calibration of the ratings (api/ratings/
 * calibration.h): 2,000 players with hidden strengths, 50,000 rated games (half at 2-seat,
 * half at 4-seat tables) over a year, through the production update. Prints the figures
 * and the targets of issue 25; exits 1 when a target is missed.
 *
 *   ratings_bench [PLAYERS GAMES FOUR_SEAT_PERCENT SPREAD DAYS SEED]
 */
#include <stdio.h>
#include <stdlib.h>

#include "ratings/calibration.h"

/* The decimal argument argv[i], or `fallback` when absent. */
static double arg(int argc, char **argv, int i, double fallback)
{
    return argc > i ? strtod(argv[i], NULL) : fallback;
}

int main(int argc, char **argv)
{
    struct calibration_params p = {
        .players = (int)arg(argc, argv, 1, 2000),
        .games = (int)arg(argc, argv, 2, 50000),
        .four_seat_share = (int)arg(argc, argv, 3, 50),
        .spread = arg(argc, argv, 4, 300),
        .days = (int)arg(argc, argv, 5, 365),
        .seed = (uint64_t)arg(argc, argv, 6, 25),
    };
    struct calibration_report r;
    if (calibration_run(&p, &r) != 0) {
        fprintf(stderr, "ratings_bench: bad parameters or out of memory\n");
        return 2;
    }
    printf("ratings calibration: %d players (hidden strengths 1500 +- %.0f), %d games over %d "
           "days (%d 2-seat, %d 4-seat), seed %llu\n",
           p.players, p.spread, p.games, p.days, r.two_seat_games, r.four_seat_games,
           (unsigned long long)p.seed);
    printf("spearman(hidden, rating): %.4f all players (target >= 0.9), %.4f over the %d "
           "no longer provisional; mean deviation %.1f\n",
           r.spearman, r.spearman_settled, r.settled, r.mean_deviation);
    printf("2-seat games by decile of the predicted win probability:\n");
    printf("  decile  games  predicted  observed  gap (points)\n");
    for (int b = 0; b < CALIBRATION_BINS; b++)
        printf("  %6d  %5d  %8.1f%%  %7.1f%%  %+6.1f\n", b + 1, r.bins[b].games,
               100 * r.bins[b].predicted, 100 * r.bins[b].observed,
               100 * (r.bins[b].observed - r.bins[b].predicted));
    printf("worst decile: %.1f points (target <= 3.0); %.1f points from the ratings alone "
           "(deviations left out), %.1f with Glickman's combined deviation (root sum of "
           "squares)\n",
           100 * r.worst_gap, 100 * r.worst_gap_no_rd, 100 * r.worst_gap_rss);
    printf("rating error (centred rms): %.1f points, against a mean deviation of %.1f\n",
           r.rms_error, r.mean_deviation);
    printf("4-seat tables: pairs ordered right %.1f%% (chance 50%%, hidden strengths %.1f%%); "
           "winner the best rated %.1f%% (chance 25%%, strongest hidden %.1f%%)\n",
           100 * r.pairs_right, 100 * r.pairs_right_hidden, 100 * r.winner_right,
           100 * r.winner_right_hidden);
    int ok = r.spearman >= 0.9 && r.worst_gap <= 0.03;
    printf("%s\n", ok ? "targets met" : "TARGET MISSED");
    return ok ? 0 : 1;
}
