/* calibration.c: the simulated players and games of calibration.h, and the figures. */
#include "calibration.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ratings.h"
#include "rng.h"

#define DAY_MS   86400000LL
#define START_MS 1767225600000LL /* 2026-01-01: any clock after 0 (0 means never rated) */
#define PI       3.14159265358979323846

/* A simulated player. */
struct sim_player {
    double strength;              /* hidden, rating points */
    struct glicko2_rating rating; /* as estimated so far */
    long long last_ms;            /* when its last game ended, 0: never */
};

/* A 2-seat game's prediction and outcome, for the deciles. */
struct sim_pred {
    double p;       /* predicted probability that the first seat wins */
    double p_no_rd; /* the same from the ratings alone (deviations 0) */
    double p_rss;   /* the same with the root sum of squares of the deviations (Glickman's
                       combined deviation, glicko2_win_probability_rss) */
    int first;      /* 1 when it won */
};

/* A uniform double in (0, 1). */
static double uniform(struct cc_rng *r)
{
    return ((double)(cc_rng_next(r) >> 11) + 0.5) / 9007199254740992.0;
}

/* A standard normal draw (Box-Muller). */
static double normal(struct cc_rng *r)
{
    double u = uniform(r), v = uniform(r);
    return sqrt(-2.0 * log(u)) * cos(2.0 * PI * v);
}

/* Draws k distinct players of n into seats[]. */
static void draw_seats(struct cc_rng *r, int n, int k, int seats[])
{
    for (int i = 0; i < k; i++) {
        int again;
        do {
            seats[i] = (int)cc_rng_below(r, (uint32_t)n);
            again = 0;
            for (int j = 0; j < i; j++) again |= seats[j] == seats[i];
        } while (again);
    }
}

/* qsort order of (value, index) pairs by value, ascending. */
static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* qsort order of predictions by the one with deviations, ascending. */
static int by_pred(const void *a, const void *b)
{
    double x = ((const struct sim_pred *)a)->p, y = ((const struct sim_pred *)b)->p;
    return (x > y) - (x < y);
}

/* qsort order of predictions by the one from ratings alone, ascending. */
static int by_pred_no_rd(const void *a, const void *b)
{
    double x = ((const struct sim_pred *)a)->p_no_rd, y = ((const struct sim_pred *)b)->p_no_rd;
    return (x > y) - (x < y);
}

/* qsort order of predictions by the one with the root sum of squares, ascending. */
static int by_pred_rss(const void *a, const void *b)
{
    double x = ((const struct sim_pred *)a)->p_rss, y = ((const struct sim_pred *)b)->p_rss;
    return (x > y) - (x < y);
}

/* The deciles of the m predictions (sorted by the one in use, `no_rd` picks it: 0 the one
 * in use, 1 from the ratings alone, 2 the root sum of squares) into bins[] (NULL: not
 * kept); returns the worst gap between predicted and observed. */
static double deciles(const struct sim_pred *preds, int m, int no_rd, struct calibration_bin *bins)
{
    double worst = 0;
    for (int b = 0; b < CALIBRATION_BINS && m >= CALIBRATION_BINS; b++) {
        struct calibration_bin bin = {0, 0, 0};
        int lo = (int)((long)m * b / CALIBRATION_BINS);
        int hi = (int)((long)m * (b + 1) / CALIBRATION_BINS);
        for (int i = lo; i < hi; i++) {
            bin.predicted += no_rd == 2 ? preds[i].p_rss : no_rd ? preds[i].p_no_rd : preds[i].p;
            bin.observed += preds[i].first;
        }
        bin.games = hi - lo;
        bin.predicted /= bin.games;
        bin.observed /= bin.games;
        double gap = fabs(bin.predicted - bin.observed);
        if (gap > worst) worst = gap;
        if (bins) bins[b] = bin;
    }
    return worst;
}

/* Spearman's correlation of x[] and y[] (n values, ranks from sorting; ties are not
 * expected of continuous values). -2 when memory is short. */
static double spearman(const double *x, const double *y, int n)
{
    double *pairs = malloc(sizeof *pairs * 2 * (size_t)n);
    double *rank_x = malloc(sizeof *rank_x * (size_t)n);
    if (!pairs || !rank_x) {
        free(pairs);
        free(rank_x);
        return -2;
    }
    /* Rank x: sort (value, index) pairs. */
    for (int pass = 0; pass < 2; pass++) {
        const double *v = pass == 0 ? x : y;
        for (int i = 0; i < n; i++) {
            pairs[2 * i] = v[i];
            pairs[2 * i + 1] = i;
        }
        qsort(pairs, (size_t)n, 2 * sizeof *pairs, by_value);
        if (pass == 0) {
            for (int i = 0; i < n; i++) rank_x[(int)pairs[2 * i + 1]] = i;
        } else {
            double d2 = 0;
            for (int i = 0; i < n; i++) {
                double d = rank_x[(int)pairs[2 * i + 1]] - i;
                d2 += d * d;
            }
            free(pairs);
            free(rank_x);
            return 1.0 - 6.0 * d2 / ((double)n * ((double)n * n - 1.0));
        }
    }
    return -2; /* not reached */
}

/* The Spearman correlation over the players (all, or settled only); -2 when short. */
static double players_spearman(const struct sim_player *pl, int n, int settled_only, int *count)
{
    double *x = malloc(sizeof *x * (size_t)n), *y = malloc(sizeof *y * (size_t)n);
    int k = 0;
    double rho = -2;
    if (x && y) {
        for (int i = 0; i < n; i++) {
            if (settled_only && glicko2_provisional(&pl[i].rating)) continue;
            x[k] = pl[i].strength;
            y[k] = pl[i].rating.rating;
            k++;
        }
        rho = k >= 2 ? spearman(x, y, k) : 0;
    }
    free(x);
    free(y);
    *count = k;
    return rho;
}

/* One 4-seat table's finishing order, drawn by Plackett-Luce from the seats' hidden
 * strengths, into places[] (0 first). */
static void four_seat_order(struct cc_rng *r, const struct sim_player *pl, const int seats[4],
                            int places[4])
{
    double w[4];
    int left[4] = {0, 1, 2, 3}, nleft = 4;
    for (int i = 0; i < 4; i++) w[i] = pow(10.0, (pl[seats[i]].strength - 1500.0) / 400.0);
    for (int place = 0; place < 4; place++) {
        double sum = 0;
        for (int i = 0; i < nleft; i++) sum += w[left[i]];
        double u = uniform(r) * sum;
        int pick = nleft - 1;
        for (int i = 0; i < nleft; i++) {
            if (u < w[left[i]]) {
                pick = i;
                break;
            }
            u -= w[left[i]];
        }
        places[left[pick]] = place;
        left[pick] = left[--nleft];
    }
}

int calibration_run(const struct calibration_params *p, struct calibration_report *out)
{
    if (p->players < 4 || p->games < 10 || p->four_seat_share < 0 || p->four_seat_share > 100 ||
        !(p->spread >= 0) || p->days < 1)
        return -1;
    memset(out, 0, sizeof *out);
    struct sim_player *pl = malloc(sizeof *pl * (size_t)p->players);
    struct sim_pred *preds = malloc(sizeof *preds * (size_t)p->games);
    if (!pl || !preds) {
        free(pl);
        free(preds);
        return -1;
    }
    struct cc_rng rng;
    cc_rng_seed(&rng, p->seed);
    for (int i = 0; i < p->players; i++) {
        pl[i].strength = 1500.0 + p->spread * normal(&rng);
        pl[i].rating = glicko2_initial();
        pl[i].last_ms = 0;
    }
    struct glicko2_params params = glicko2_production();
    long long step_ms = (long long)p->days * DAY_MS / p->games;
    long pairs = 0, pairs_right = 0, pairs_right_hidden = 0;
    int rc = 0;
    for (int g = 0; g < p->games && rc == 0; g++) {
        long long now = START_MS + g * step_ms;
        int four = (int)cc_rng_below(&rng, 100) < p->four_seat_share;
        int n = four ? 4 : 2, seats[4], places[4];
        draw_seats(&rng, p->players, n, seats);
        /* The ratings as they stand now, deviations aged, for the predictions. */
        struct glicko2_rating now_rated[4];
        for (int i = 0; i < n; i++) {
            const struct sim_player *s = &pl[seats[i]];
            now_rated[i] =
                glicko2_aged(&s->rating, s->last_ms ? glicko2_periods(now - s->last_ms) : 0.0);
        }
        if (!four) {
            double hidden =
                1.0 / (1.0 + pow(10.0, (pl[seats[1]].strength - pl[seats[0]].strength) / 400.0));
            int first_won = uniform(&rng) < hidden;
            places[0] = first_won ? 0 : 1;
            places[1] = first_won ? 1 : 0;
            preds[out->two_seat_games].p = glicko2_win_probability(&now_rated[0], &now_rated[1]);
            preds[out->two_seat_games].p_rss =
                glicko2_win_probability_rss(&now_rated[0], &now_rated[1]);
            struct glicko2_rating a = now_rated[0], b = now_rated[1];
            a.deviation = b.deviation = 0;
            preds[out->two_seat_games].p_no_rd = glicko2_win_probability(&a, &b);
            preds[out->two_seat_games].first = first_won;
            out->two_seat_games++;
        } else {
            four_seat_order(&rng, pl, seats, places);
            int best = 0, strongest = 0;
            for (int i = 0; i < 4; i++) {
                if (now_rated[i].rating > now_rated[best].rating) best = i;
                if (pl[seats[i]].strength > pl[seats[strongest]].strength) strongest = i;
                for (int j = i + 1; j < 4; j++) {
                    int i_above = places[i] < places[j];
                    pairs++;
                    pairs_right += (now_rated[i].rating > now_rated[j].rating) == i_above;
                    pairs_right_hidden +=
                        (pl[seats[i]].strength > pl[seats[j]].strength) == i_above;
                }
            }
            out->winner_right += places[best] == 0;
            out->winner_right_hidden += places[strongest] == 0;
            out->four_seat_games++;
        }
        struct ratings_seat rs[4];
        struct glicko2_rating next[4];
        for (int i = 0; i < n; i++) {
            rs[i].rating = pl[seats[i]].rating;
            rs[i].last_rated_ms = pl[seats[i]].last_ms;
            rs[i].place = places[i];
        }
        if (ratings_update_game(n, rs, now, &params, next) != GLICKO2_OK) {
            rc = -1;
            break;
        }
        for (int i = 0; i < n; i++) {
            pl[seats[i]].rating = next[i];
            pl[seats[i]].last_ms = now;
        }
    }
    if (rc == 0) {
        int all;
        out->spearman = players_spearman(pl, p->players, 0, &all);
        out->spearman_settled = players_spearman(pl, p->players, 1, &out->settled);
        if (out->spearman < -1 || out->spearman_settled < -1) rc = -1;
        for (int i = 0; i < p->players; i++) out->mean_deviation += pl[i].rating.deviation;
        out->mean_deviation /= p->players;
        if (out->four_seat_games) {
            out->winner_right /= out->four_seat_games;
            out->winner_right_hidden /= out->four_seat_games;
            out->pairs_right = (double)pairs_right / (double)pairs;
            out->pairs_right_hidden = (double)pairs_right_hidden / (double)pairs;
        }
        int m = out->two_seat_games;
        qsort(preds, (size_t)m, sizeof *preds, by_pred);
        out->worst_gap = deciles(preds, m, 0, out->bins);
        qsort(preds, (size_t)m, sizeof *preds, by_pred_no_rd);
        out->worst_gap_no_rd = deciles(preds, m, 1, NULL);
        qsort(preds, (size_t)m, sizeof *preds, by_pred_rss);
        out->worst_gap_rss = deciles(preds, m, 2, NULL);
        double mean_s = 0, mean_r = 0, sq = 0;
        for (int i = 0; i < p->players; i++) {
            mean_s += pl[i].strength / p->players;
            mean_r += pl[i].rating.rating / p->players;
        }
        for (int i = 0; i < p->players; i++) {
            double e = (pl[i].rating.rating - mean_r) - (pl[i].strength - mean_s);
            sq += e * e;
        }
        out->rms_error = sqrt(sq / p->players);
    }
    free(pl);
    free(preds);
    return rc;
}
