/* glicko2.c: Glicko-2 (Glickman's steps, with weighted results and Lichess's fractional
 * rating periods). The volatility is found with the Illinois algorithm of step 5.1. */
#include "glicko2.h"

#include <math.h>

#define PI 3.14159265358979323846

struct glicko2_rating glicko2_initial(void)
{
    struct glicko2_rating r = {GLICKO2_INITIAL_RATING, GLICKO2_INITIAL_DEVIATION,
                               GLICKO2_INITIAL_VOLATILITY};
    return r;
}

struct glicko2_params glicko2_production(void)
{
    struct glicko2_params p = {GLICKO2_TAU, GLICKO2_MIN_DEVIATION};
    return p;
}

int glicko2_provisional(const struct glicko2_rating *r)
{
    return r->deviation > GLICKO2_PROVISIONAL_ABOVE;
}

double glicko2_periods(long long ms)
{
    if (ms <= 0) return 0.0;
    return (double)ms / 86400000.0 * GLICKO2_PERIODS_PER_DAY;
}

/* Glickman's g(phi): how much a deviation dampens a result. */
static double g_of(double phi)
{
    return 1.0 / sqrt(1.0 + 3.0 * phi * phi / (PI * PI));
}

/* Glickman's E(mu, mu_j, phi_j). */
static double e_of(double mu, double mu_j, double phi_j)
{
    return 1.0 / (1.0 + exp(-g_of(phi_j) * (mu - mu_j)));
}

/* The deviation phi grown by `periods` with volatility sigma, capped at the initial one. */
static double grown(double phi, double sigma, double periods)
{
    double max_phi = GLICKO2_INITIAL_DEVIATION / GLICKO2_SCALE;
    double p = sqrt(phi * phi + periods * sigma * sigma);
    return p < max_phi ? p : max_phi;
}

struct glicko2_rating glicko2_aged(const struct glicko2_rating *r, double periods)
{
    struct glicko2_rating out = *r;
    if (periods > 0) {
        double phi = grown(r->deviation / GLICKO2_SCALE, r->volatility, periods);
        out.deviation = phi * GLICKO2_SCALE;
    }
    return out;
}

double glicko2_expected(const struct glicko2_rating *a, const struct glicko2_rating *b)
{
    return e_of((a->rating - GLICKO2_INITIAL_RATING) / GLICKO2_SCALE,
                (b->rating - GLICKO2_INITIAL_RATING) / GLICKO2_SCALE, b->deviation / GLICKO2_SCALE);
}

double glicko2_win_probability(const struct glicko2_rating *a, const struct glicko2_rating *b)
{
    double pa = a->deviation / GLICKO2_SCALE, pb = b->deviation / GLICKO2_SCALE;
    return e_of((a->rating - GLICKO2_INITIAL_RATING) / GLICKO2_SCALE,
                (b->rating - GLICKO2_INITIAL_RATING) / GLICKO2_SCALE,
                sqrt((pa * pa + pb * pb) / 2.0));
}

double glicko2_win_probability_rss(const struct glicko2_rating *a, const struct glicko2_rating *b)
{
    double pa = a->deviation / GLICKO2_SCALE, pb = b->deviation / GLICKO2_SCALE;
    return e_of((a->rating - GLICKO2_INITIAL_RATING) / GLICKO2_SCALE,
                (b->rating - GLICKO2_INITIAL_RATING) / GLICKO2_SCALE, sqrt(pa * pa + pb * pb));
}

/* Step 5's f(x). */
static double f_of(double x, double delta, double phi, double v, double a, double tau)
{
    double ex = exp(x);
    double d = phi * phi + v + ex;
    return ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau);
}

/* Step 5: the new volatility (Illinois algorithm). */
static double new_volatility(double sigma, double delta, double phi, double v, double tau)
{
    double a = log(sigma * sigma);
    double big_a = a, big_b;
    if (delta * delta > phi * phi + v) {
        big_b = log(delta * delta - phi * phi - v);
    } else {
        int k = 1;
        while (f_of(a - k * tau, delta, phi, v, a, tau) < 0 && k < 1000) k++;
        big_b = a - k * tau;
    }
    double fa = f_of(big_a, delta, phi, v, a, tau), fb = f_of(big_b, delta, phi, v, a, tau);
    for (int i = 0; i < 200 && fabs(big_b - big_a) > GLICKO2_CONVERGENCE; i++) {
        double c = big_a + (big_a - big_b) * fa / (fb - fa);
        double fc = f_of(c, delta, phi, v, a, tau);
        if (fc * fb <= 0) {
            big_a = big_b;
            fa = fb;
        } else {
            fa /= 2.0;
        }
        big_b = c;
        fb = fc;
    }
    return exp(big_a / 2.0);
}

/* 1 when `x` is a finite number within [lo, hi]. */
static int within(double x, double lo, double hi)
{
    return isfinite(x) && x >= lo && x <= hi;
}

/* 1 when `r` is a rating an update can take. */
static int rating_ok(const struct glicko2_rating *r)
{
    return within(r->rating, -100000.0, 100000.0) && within(r->deviation, 1e-6, 10000.0) &&
           within(r->volatility, 1e-9, 10.0);
}

enum glicko2_status glicko2_update(const struct glicko2_rating *player, double periods,
                                   const struct glicko2_result *results, int n,
                                   const struct glicko2_params *params, struct glicko2_rating *out)
{
    if (!rating_ok(player) || !within(periods, 0.0, 1e9) || n < 0 || n > GLICKO2_MAX_RESULTS ||
        !within(params->tau, 1e-6, 100.0) || !within(params->min_deviation, 0.0, 10000.0))
        return GLICKO2_BAD_INPUT;
    double inv_v = 0.0, sum = 0.0;
    double mu = (player->rating - GLICKO2_INITIAL_RATING) / GLICKO2_SCALE;
    double phi = player->deviation / GLICKO2_SCALE, sigma = player->volatility;
    for (int i = 0; i < n; i++) {
        const struct glicko2_result *res = &results[i];
        if (!rating_ok(&res->opponent) || !within(res->score, 0.0, 1.0) ||
            !within(res->weight, 0.0, 1.0))
            return GLICKO2_BAD_INPUT;
        double mu_j = (res->opponent.rating - GLICKO2_INITIAL_RATING) / GLICKO2_SCALE;
        double phi_j = res->opponent.deviation / GLICKO2_SCALE;
        double g = g_of(phi_j), e = e_of(mu, mu_j, phi_j);
        inv_v += res->weight * g * g * e * (1.0 - e);
        sum += res->weight * g * (res->score - e);
    }
    struct glicko2_rating next = *player;
    if (inv_v <= 0.0) {
        /* No game counted: only the time away (Glickman's step for a player who sat out). */
        next.deviation = grown(phi, sigma, periods) * GLICKO2_SCALE;
    } else {
        double v = 1.0 / inv_v, delta = v * sum;
        double sigma_new = new_volatility(sigma, delta, phi, v, params->tau);
        double phi_star = grown(phi, sigma_new, periods);
        double phi_new = 1.0 / sqrt(1.0 / (phi_star * phi_star) + 1.0 / v);
        double mu_new = mu + phi_new * phi_new * sum;
        next.rating = mu_new * GLICKO2_SCALE + GLICKO2_INITIAL_RATING;
        next.deviation = phi_new * GLICKO2_SCALE;
        next.volatility = sigma_new;
    }
    if (next.deviation < params->min_deviation) next.deviation = params->min_deviation;
    if (next.deviation > GLICKO2_INITIAL_DEVIATION) next.deviation = GLICKO2_INITIAL_DEVIATION;
    if (!rating_ok(&next)) return GLICKO2_BAD_INPUT;
    *out = next;
    return GLICKO2_OK;
}
