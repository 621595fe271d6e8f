/* ratings_test.c: Glicko-2 against Glickman's published example, the instant update's
 * time away, and the multi-seat update (finishing order, pairwise results weighted
 * 1/(N-1)) against cases computed independently, step by step from Glickman's paper
 * (a separate implementation in double precision; the values are printed to 4 places). */
#include <criterion/criterion.h>
#include <math.h>

#include <stdlib.h>
#include <string.h>

#include "json_game.h"
#include "ratings/calibration.h"
#include "ratings/glicko2.h"
#include "ratings/ratings.h"

#define DAY_MS 86400000LL

static void assert_rating(struct glicko2_rating got, double r, double rd, double sigma)
{
    cr_expect(fabs(got.rating - r) < 0.001, "rating %.4f, want %.4f", got.rating, r);
    cr_expect(fabs(got.deviation - rd) < 0.001, "deviation %.4f, want %.4f", got.deviation, rd);
    cr_expect(fabs(got.volatility - sigma) < 0.000002, "volatility %.6f, want %.6f", got.volatility,
              sigma);
}

/* Glickman, "Example of the Glicko-2 system": 1500/200 against 1400/30 (won), 1550/100
 * (lost), 1700/300 (lost), tau 0.5, one rating period: 1464.06 / 151.52 / 0.05999 (his
 * figures round each intermediate step; full precision gives 1464.0507 / 151.5165). */
Test(glicko2, glickman_example)
{
    struct glicko2_rating me = {1500, 200, 0.06}, out;
    struct glicko2_result res[3] = {
        {{1400, 30, 0.06}, 1, 1}, {{1550, 100, 0.06}, 0, 1}, {{1700, 300, 0.06}, 0, 1}};
    struct glicko2_params p = {0.5, 0};
    cr_assert_eq(glicko2_update(&me, 1.0, res, 3, &p, &out), GLICKO2_OK);
    cr_expect(fabs(out.rating - 1464.06) < 0.02, "rating %.4f", out.rating);
    cr_expect(fabs(out.deviation - 151.52) < 0.01, "deviation %.4f", out.deviation);
    cr_expect(fabs(out.volatility - 0.05999) < 0.00001, "volatility %.6f", out.volatility);
    assert_rating(out, 1464.0507, 151.5165, 0.059996);
}

Test(glicko2, initial_and_provisional)
{
    struct glicko2_rating r = glicko2_initial();
    cr_expect_eq(r.rating, 1500);
    cr_expect_eq(r.deviation, 350);
    cr_expect_eq(r.volatility, 0.06);
    cr_expect(glicko2_provisional(&r));
    r.deviation = 110;
    cr_expect(!glicko2_provisional(&r));
    r.deviation = 110.01;
    cr_expect(glicko2_provisional(&r));
    struct glicko2_params p = glicko2_production();
    cr_expect_eq(p.tau, 0.75);
}

/* Time away: RD grows as sqrt(RD^2 + periods sigma^2) on the Glicko-2 scale, with
 * 0.21436 periods a day, up to 350; no time, no growth. */
Test(glicko2, deviation_grows_with_days_away)
{
    struct glicko2_rating r = {1700, 60, 0.06};
    cr_expect_eq(glicko2_aged(&r, 0).deviation, 60);
    double periods = glicko2_periods(100 * DAY_MS);
    cr_expect(fabs(periods - 21.436) < 1e-9);
    double want = sqrt(60.0 * 60.0 + 21.436 * (0.06 * 173.7178) * (0.06 * 173.7178));
    cr_expect(fabs(glicko2_aged(&r, periods).deviation - want) < 1e-9, "%f vs %f",
              glicko2_aged(&r, periods).deviation, want);
    cr_expect_eq(glicko2_aged(&r, glicko2_periods(100000 * DAY_MS)).deviation, 350);
    cr_expect_eq(glicko2_aged(&r, periods).rating, 1700);
    cr_expect_eq(glicko2_periods(-5), 0);
    /* A game after a long time away moves the rating more than one right after. */
    struct glicko2_result won = {{1700, 60, 0.06}, 1, 1};
    struct glicko2_params p = glicko2_production();
    struct glicko2_rating soon, late;
    cr_assert_eq(glicko2_update(&r, 0, &won, 1, &p, &soon), GLICKO2_OK);
    cr_assert_eq(glicko2_update(&r, periods, &won, 1, &p, &late), GLICKO2_OK);
    cr_expect(late.rating - 1700 > soon.rating - 1700 + 1, "%f %f", late.rating, soon.rating);
}

Test(glicko2, deviation_floor_and_bad_input)
{
    struct glicko2_rating r = {1500, 45, 0.06}, out;
    struct glicko2_result res = {{1500, 46, 0.06}, 1, 1};
    struct glicko2_params p = glicko2_production();
    cr_assert_eq(glicko2_update(&r, 0, &res, 1, &p, &out), GLICKO2_OK);
    cr_expect_eq(out.deviation, GLICKO2_MIN_DEVIATION);
    res.score = 1.5;
    cr_expect_eq(glicko2_update(&r, 0, &res, 1, &p, &out), GLICKO2_BAD_INPUT);
    res.score = 1;
    res.weight = -1;
    cr_expect_eq(glicko2_update(&r, 0, &res, 1, &p, &out), GLICKO2_BAD_INPUT);
    res.weight = NAN;
    cr_expect_eq(glicko2_update(&r, 0, &res, 1, &p, &out), GLICKO2_BAD_INPUT);
    res.weight = 1;
    r.deviation = 0;
    cr_expect_eq(glicko2_update(&r, 0, &res, 1, &p, &out), GLICKO2_BAD_INPUT);
    r.deviation = 100;
    cr_expect_eq(glicko2_update(&r, -1, &res, 1, &p, &out), GLICKO2_BAD_INPUT);
    /* No result: the deviation grows, nothing else moves. */
    cr_assert_eq(glicko2_update(&r, 4, &res, 0, &p, &out), GLICKO2_OK);
    cr_expect_eq(out.rating, 1500);
    cr_expect(out.deviation > 100);
}

Test(glicko2, win_probability)
{
    struct glicko2_rating a = {1700, 50, 0.06}, b = {1500, 50, 0.06};
    double p = glicko2_win_probability(&a, &b), q = glicko2_win_probability(&b, &a);
    cr_expect(fabs(p + q - 1) < 1e-12);
    cr_expect(p > 0.74 && p < 0.76, "%f", p); /* about Elo's 0.76 for 200 points */
    cr_expect(fabs(glicko2_win_probability(&a, &a) - 0.5) < 1e-12);
}

/* Places from scores and resignations. */
Test(ratings, finishing_order)
{
    int places[6];
    struct ratings_seat_end two[2] = {{80, 0}, {95, 0}};
    cr_assert_eq(ratings_finishing_order(2, two, places), 0);
    cr_expect(places[0] == 1 && places[1] == 0);

    /* Shared scores tie: 50, 70, 50, 30 -> places 1, 0, 1, 3. */
    struct ratings_seat_end four[4] = {{50, 0}, {70, 0}, {50, 0}, {30, 0}};
    cr_assert_eq(ratings_finishing_order(4, four, places), 0);
    cr_expect(places[0] == 1 && places[1] == 0 && places[2] == 1 && places[3] == 3);
    cr_expect_eq(ratings_outcome_of(4, places, 1), RATINGS_WON);
    cr_expect_eq(ratings_outcome_of(4, places, 0), RATINGS_LOST);

    /* A resigned seat ranks below every seat still in, whatever its score; a later
     * resignation above an earlier one: seat 0 resigned at version 40, seat 3 at 12. */
    struct ratings_seat_end six[6] = {{120, 40}, {10, 0}, {60, 0}, {200, 12}, {60, 0}, {5, 0}};
    cr_assert_eq(ratings_finishing_order(6, six, places), 0);
    int want[6] = {4, 2, 0, 5, 0, 3};
    for (int i = 0; i < 6; i++) cr_expect_eq(places[i], want[i], "seat %d", i);
    cr_expect_eq(ratings_outcome_of(6, places, 2), RATINGS_DRAWN);
    cr_expect_eq(ratings_outcome_of(6, places, 4), RATINGS_DRAWN);

    /* Two seats timed out on the same turn tie with each other. */
    struct ratings_seat_end three[3] = {{0, 7}, {0, 0}, {30, 7}};
    cr_assert_eq(ratings_finishing_order(3, three, places), 0);
    cr_expect(places[0] == 1 && places[1] == 0 && places[2] == 1);

    cr_expect_eq(ratings_finishing_order(1, two, places), -1);
    cr_expect_eq(ratings_finishing_order(7, six, places), -1);
    struct ratings_seat_end bad[2] = {{1, -1}, {1, 0}};
    cr_expect_eq(ratings_finishing_order(2, bad, places), -1);
}

/* Runs ratings_update_game on n seats with no time away, production parameters. */
static void update(int n, const double in[][3], const int places[], struct glicko2_rating *out)
{
    struct ratings_seat seats[RATINGS_MAX_SEATS];
    for (int i = 0; i < n; i++) {
        seats[i].rating = (struct glicko2_rating){in[i][0], in[i][1], in[i][2]};
        seats[i].last_rated_ms = 1000 * DAY_MS;
        seats[i].place = places[i];
    }
    struct glicko2_params p = glicko2_production();
    cr_assert_eq(ratings_update_game(n, seats, 1000 * DAY_MS, &p, out), GLICKO2_OK);
}

/* Whole games through ratings_update_game: each seat's rating before (rating, deviation,
 * volatility), its place, and its rating after. */
static const struct {
    const char *name; /* what the game shows */
    int n;            /* seats */
    double in[RATINGS_MAX_SEATS][3];
    int places[RATINGS_MAX_SEATS];
    double want[RATINGS_MAX_SEATS][3];
} games[] = {
    /* By hand: phi = 2.0148, g = 0.6690, E = 0.5, v = 8.937, phi' = 1.6707, mu' = +0.9338. */
    {"two new players",
     2,
     {{1500, 350, 0.06}, {1500, 350, 0.06}},
     {0, 1},
     {{1662.2120, 290.2305, 0.059999}, {1337.7880, 290.2305, 0.059999}}},
    {"two seats, a draw",
     2,
     {{1600, 80, 0.06}, {1450, 120, 0.06}},
     {0, 0},
     {{1593.6589, 78.4648, 0.059995}, {1464.5206, 114.7012, 0.059995}}},
    {"three seats",
     3,
     {{1500, 350, 0.06}, {1700, 100, 0.06}, {1350, 60, 0.05}},
     {1, 0, 2},
     {{1511.2371, 264.0396, 0.059997},
      {1709.2208, 98.3851, 0.059998},
      {1346.2908, 59.6376, 0.049999}}},
    {"four seats, two share the first place",
     4,
     {{1500, 200, 0.06}, {1620, 90, 0.06}, {1480, 150, 0.07}, {1800, 60, 0.06}},
     {0, 0, 2, 3},
     {{1587.6052, 179.8035, 0.060000},
      {1633.2937, 87.9351, 0.059997},
      {1485.3529, 141.5602, 0.069993},
      {1785.4069, 59.5279, 0.060011}}},
};

Test(ratings, whole_games)
{
    for (size_t k = 0; k < sizeof games / sizeof games[0]; k++) {
        struct glicko2_rating out[RATINGS_MAX_SEATS];
        update(games[k].n, games[k].in, games[k].places, out);
        for (int i = 0; i < games[k].n; i++) /* a failure names the values it expected */
            assert_rating(out[i], games[k].want[i][0], games[k].want[i][1], games[k].want[i][2]);
    }
}

/* Six seats, seat 0 resigned first (last place), the rest by score. */
Test(ratings, six_seats_with_a_resignation)
{
    const double in[6][3] = {{1500, 350, 0.06}, {1550, 300, 0.06}, {1600, 120, 0.06},
                             {1400, 90, 0.06},  {1700, 200, 0.06}, {1300, 50, 0.06}};
    struct ratings_seat_end ends[6] = {{90, 33}, {100, 0}, {80, 0}, {70, 0}, {60, 0}, {50, 0}};
    int places[6];
    cr_assert_eq(ratings_finishing_order(6, ends, places), 0);
    int want[6] = {5, 0, 1, 2, 3, 4};
    for (int i = 0; i < 6; i++) cr_expect_eq(places[i], want[i]);
    struct glicko2_rating out[6];
    update(6, in, places, out);
    assert_rating(out[0], 1313.1530, 268.0301, 0.059999);
    assert_rating(out[1], 1680.6835, 245.3502, 0.059999);
    assert_rating(out[2], 1612.1879, 116.1551, 0.059997);
    assert_rating(out[3], 1408.5275, 88.2938, 0.059997);
    assert_rating(out[4], 1638.1464, 185.2258, 0.059999);
    assert_rating(out[5], 1299.0217, 49.7487, 0.059996);
}

/* The weighting: winning a table of N equally rated opponents moves a rating exactly as
 * much as winning one 2-seat game against one of them (the weights of a seat's results
 * add up to 1); unweighted, a 6-seat win would move it far more. */
Test(ratings, big_table_weighs_as_one_game)
{
    for (int n = 3; n <= 6; n++) {
        double in[6][3];
        int places[6];
        for (int i = 0; i < n; i++) {
            in[i][0] = 1500;
            in[i][1] = 150;
            in[i][2] = 0.06;
            places[i] = i == 0 ? 0 : 1;
        }
        struct glicko2_rating big[6], two[2];
        update(n, (const double(*)[3])in, places, big);
        update(2, (const double(*)[3])in, places, two);
        cr_expect(fabs(big[0].rating - two[0].rating) < 1e-9, "n %d: %f vs %f", n, big[0].rating,
                  two[0].rating);
        cr_expect(fabs(big[0].deviation - two[0].deviation) < 1e-9);
    }
}

/* Time away counts for the seat's own deviation (and its opponents'): a player back after
 * a year moves more than one who played yesterday. */
Test(ratings, time_away)
{
    struct ratings_seat seats[2] = {{{1500, 60, 0.06}, 1000 * DAY_MS, 0},
                                    {{1500, 60, 0.06}, 1364 * DAY_MS, 1}};
    struct glicko2_rating out[2];
    struct glicko2_params p = glicko2_production();
    cr_assert_eq(ratings_update_game(2, seats, 1365 * DAY_MS, &p, out), GLICKO2_OK);
    cr_expect(out[0].rating - 1500 > 1500 - out[1].rating + 5, "%f %f", out[0].rating,
              out[1].rating);
    /* A never-rated seat (0) has no time away. */
    seats[0].last_rated_ms = 0;
    seats[0].rating = glicko2_initial();
    cr_assert_eq(ratings_update_game(2, seats, 1365 * DAY_MS, &p, out), GLICKO2_OK);
    cr_expect(out[0].deviation < 350);
    cr_expect_eq(ratings_update_game(1, seats, 0, &p, out), GLICKO2_BAD_INPUT);
}

/* What a seat brings to a game (game_finished's "before"): the stored rating with its
 * deviation aged by the days since its last rated game; a never-rated seat and a clock
 * that went back age nothing. */
Test(ratings, seat_now_is_aged)
{
    struct ratings_seat s = {{1600, 60, 0.06}, 1000 * DAY_MS, 0};
    struct glicko2_rating now = ratings_seat_now(&s, 1100 * DAY_MS);
    struct glicko2_rating want = glicko2_aged(&s.rating, glicko2_periods(100 * DAY_MS));
    cr_expect_eq(now.rating, 1600);
    cr_expect(now.deviation > 60 + 10, "%f", now.deviation);
    cr_expect(fabs(now.deviation - want.deviation) < 1e-9);
    cr_expect_eq(ratings_seat_now(&s, 900 * DAY_MS).deviation, 60);
    s.last_rated_ms = 0;
    cr_expect_eq(ratings_seat_now(&s, 1100 * DAY_MS).deviation, 60);
}

/* The calibration (api/ratings/calibration.h) at the full size of `make bench-ratings`
 * (2,000 players, 50,000 games, half at 4-seat tables; a fraction of a second): the
 * ranking target of issue 25 (Spearman >= 0.9) and the 4-seat order well above chance.
 * The deciles' target (3 points) is measured and reported by `make bench-ratings`: the
 * default seed meets it (2.6), some other seeds miss it by half a point, as
 * docs/internals.md explains (4-seat results weighted 1/(N-1) leave the deviations above
 * the real error, so predictions lean towards 0.5); a decile of 2,500 games is itself
 * about 1 point uncertain. Here a decile more than 5 points off fails: a check against a
 * broken update (a result with its sign turned makes the Spearman negative), not the
 * target. */
Test(ratings, calibration_short_form, .timeout = 60)
{
    struct calibration_params p = {.seed = 25,
                                   .players = 2000,
                                   .games = 50000,
                                   .four_seat_share = 50,
                                   .spread = 300,
                                   .days = 365};
    struct calibration_report r, again;
    cr_assert_eq(calibration_run(&p, &r), 0);
    cr_expect(r.spearman >= 0.9, "spearman %.4f", r.spearman);
    cr_expect(r.worst_gap <= 0.05, "worst decile %.1f points", 100 * r.worst_gap);
    cr_expect(r.pairs_right > 0.70, "pairs %.3f (chance 0.5)", r.pairs_right);
    cr_expect(r.winner_right > 0.50, "winner %.3f (chance 0.25)", r.winner_right);
    cr_expect(r.pairs_right <= r.pairs_right_hidden + 0.01, "no estimate beats the truth");
    cr_expect(r.two_seat_games + r.four_seat_games == 50000);
    for (int b = 1; b < CALIBRATION_BINS; b++)
        cr_expect(r.bins[b].predicted >= r.bins[b - 1].predicted);
    /* Deterministic from the seed. */
    cr_assert_eq(calibration_run(&p, &again), 0);
    cr_expect(memcmp(&r, &again, sizeof r) == 0);
    p.games = 5;
    cr_expect_eq(calibration_run(&p, &again), -1);
}

/* The prediction in use takes the root mean square of the deviations, Glickman's the root
 * sum of squares: the same for deviations 0, further from 0.5 otherwise. */
Test(glicko2, win_probability_rms_and_rss)
{
    struct glicko2_rating a = {1700, 80, 0.06}, b = {1500, 60, 0.06};
    struct glicko2_rating a0 = {1700, 1e-6, 0.06}, b0 = {1500, 1e-6, 0.06};
    double rms = glicko2_win_probability(&a, &b), rss = glicko2_win_probability_rss(&a, &b);
    cr_expect(rms > rss && rss > 0.5, "%f %f", rms, rss);
    cr_expect(fabs(glicko2_win_probability(&a0, &b0) - glicko2_win_probability_rss(&a0, &b0)) <
              1e-9);
    /* By hand: phi = sqrt((80^2 + 60^2) / 2) / 173.7178, g = 1/sqrt(1 + 3 phi^2 / pi^2). */
    double phi = sqrt((80.0 * 80 + 60.0 * 60) / 2) / 173.7178;
    double g = 1 / sqrt(1 + 3 * phi * phi / (M_PI * M_PI));
    cr_expect(fabs(rms - 1 / (1 + exp(-g * 200 / 173.7178))) < 1e-6, "%f", rms);
}

/* A rated game's answer gets "ratings" as the last member of its game_finished event, and
 * nothing else changes; text without one is refused. */
Test(ratings, answer_with_ratings)
{
    const char *in =
        "{\"version\":9,\"events\":[{\"seq\":3,\"type\":\"seat_resigned\",\"seat\":0},"
        "{\"seq\":4,\"type\":\"game_finished\",\"winners\":[1],\"result\":\"re}sig\\\"n\"}],"
        "\"status\":\"finished\"}";
    size_t len = 0;
    char *out = json_with_ratings(in, strlen(in), "[{\"seat\":0}]", &len);
    cr_assert(out);
    cr_expect_str_eq(out, "{\"version\":9,\"events\":[{\"seq\":3,\"type\":\"seat_resigned\","
                          "\"seat\":0},{\"seq\":4,\"type\":\"game_finished\",\"winners\":[1],"
                          "\"result\":\"re}sig\\\"n\",\"ratings\":[{\"seat\":0}]}],"
                          "\"status\":\"finished\"}");
    cr_expect_eq(len, strlen(out));
    free(out);
    const char *none = "{\"events\":[{\"seq\":1,\"type\":\"tile_placed\"}]}";
    cr_expect_null(json_with_ratings(none, strlen(none), "[]", &len));
}
