/* ai_bench.c: the strength of the computer players: seat-swapped pairs of 2-player games on
 * the same shuffled decks, greedy against random, per ruleset: win rate (a tie counts half)
 * with its 95 % Wilson interval, mean score margin, and moves a second of each level.
 * Usage: bench-ai [pairs per ruleset, default 200] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bot.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Time spent choosing and moves chosen, per level. */
struct level_stats {
    double seconds; /* in cc_bot_choose, place phase */
    uint64_t moves; /* placements chosen */
};

static struct cc_bot_scratch scratch;
static struct cc_game game;

/* Plays one game of `setup` with the levels of seat 0 and seat 1; scores into score[]. */
static void play(const struct cc_setup *setup, const enum cc_bot_level level[2], uint64_t seed,
                 int score[2], struct level_stats stats[CC_BOT_LEVEL_COUNT])
{
    if (cc_game_new(&game, setup, NULL) != CC_OK) {
        fprintf(stderr, "bench-ai: cannot create a game\n");
        exit(1);
    }
    while (game.phase != CC_PHASE_FINISHED) {
        struct cc_action a;
        enum cc_bot_level lv = level[game.seat];
        bool place = game.phase == CC_PHASE_PLACE;
        double t0 = place ? now() : 0;
        uint64_t move_seed = seed ^ ((uint64_t)game.turn << 32) ^ game.seat;
        enum cc_status st = cc_bot_choose(&game, lv, move_seed, &scratch, &a);
        if (place) {
            stats[lv].seconds += now() - t0;
            stats[lv].moves++;
        }
        if (st != CC_OK || cc_game_apply(&game, &a, NULL) != CC_OK) {
            fprintf(stderr, "bench-ai: a bot's move was refused (%s)\n", cc_status_name(st));
            exit(1);
        }
    }
    score[0] = game.players[0].score;
    score[1] = game.players[1].score;
}

/* The 95 % Wilson score interval of `wins` out of `n`. */
static void wilson(double wins, double n, double *lo, double *hi)
{
    const double z = 1.959964;
    double p = wins / n, d = 1 + z * z / n;
    double c = (p + z * z / (2 * n)) / d;
    double h = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d;
    *lo = c - h;
    *hi = c + h;
}

static void bench(const char *label, uint8_t ruleset, struct cc_options o, unsigned pairs,
                  struct level_stats stats[CC_BOT_LEVEL_COUNT])
{
    double wins = 0, margin = 0;
    unsigned games = 0, ties = 0;
    struct level_stats mine[CC_BOT_LEVEL_COUNT];
    memset(mine, 0, sizeof mine);
    for (unsigned i = 0; i < pairs; i++) {
        struct cc_setup setup;
        memset(&setup, 0, sizeof setup);
        setup.ruleset = ruleset;
        setup.nplayers = 2;
        setup.options = o;
        setup.seed = 1000 + i; /* the same deck for both games of the pair */
        setup.start = -1;
        setup.deck_len = -1;
        for (unsigned greedy_seat = 0; greedy_seat < 2; greedy_seat++) {
            enum cc_bot_level level[2];
            level[greedy_seat] = CC_BOT_GREEDY;
            level[1 - greedy_seat] = CC_BOT_RANDOM;
            int score[2];
            play(&setup, level, setup.seed * 2 + greedy_seat, score, mine);
            int m = score[greedy_seat] - score[1 - greedy_seat];
            wins += m > 0 ? 1 : m == 0 ? 0.5 : 0;
            ties += m == 0;
            margin += m;
            games++;
        }
    }
    double lo, hi;
    wilson(wins, games, &lo, &hi);
    for (unsigned lv = 0; lv < CC_BOT_LEVEL_COUNT; lv++) {
        stats[lv].seconds += mine[lv].seconds;
        stats[lv].moves += mine[lv].moves;
    }
    printf("%-26s %5u %6.1f %% [%5.1f, %5.1f] %5u %+8.1f %8.1f %8.1f\n", label, games,
           100 * wins / games, 100 * lo, 100 * hi, ties, margin / games,
           1e6 * mine[CC_BOT_RANDOM].seconds / (double)mine[CC_BOT_RANDOM].moves,
           1e6 * mine[CC_BOT_GREEDY].seconds / (double)mine[CC_BOT_GREEDY].moves);
    fflush(stdout);
}

int main(int argc, char **argv)
{
    long pairs = argc > 1 ? strtol(argv[1], NULL, 10) : 200;
    if (pairs < 1 || pairs > 100000) pairs = 200;
    struct level_stats stats[CC_BOT_LEVEL_COUNT];
    memset(stats, 0, sizeof stats);
    printf("bench-ai: greedy against random, 2 players, %ld seat-swapped pairs of games on the "
           "same decks per ruleset, one core\n",
           pairs);
    printf("%-26s %5s %8s %14s %5s %8s %8s %8s\n", "ruleset", "games", "greedy", "95% Wilson",
           "ties", "margin", "rand us", "greedy us");
    unsigned p = (unsigned)pairs;
    bench("classic standard (farms)", CC_RULESET_CLASSIC, (struct cc_options){0}, p, stats);
    bench("classic original", CC_RULESET_CLASSIC, (struct cc_options){.edition = 1}, p, stats);
    bench("classic standard + river", CC_RULESET_CLASSIC, (struct cc_options){.river = 1}, p,
          stats);
    bench("hills", CC_RULESET_HILLS, (struct cc_options){0}, p, stats);
    bench("discovery", CC_RULESET_DISCOVERY, (struct cc_options){0}, p, stats);
    bench("discovery hand of two", CC_RULESET_DISCOVERY, (struct cc_options){.draw = CC_DRAW_HAND},
          p, stats);
    printf("win rate: greedy's wins plus half its ties; margin: greedy's score minus random's; "
           "us: microseconds a move\n");
    for (unsigned lv = 0; lv < CC_BOT_LEVEL_COUNT; lv++)
        printf("%-7s %10.0f moves/s (%.1f us a move, %llu moves)\n",
               cc_bot_level_name((enum cc_bot_level)lv), stats[lv].moves / stats[lv].seconds,
               1e6 * stats[lv].seconds / (double)stats[lv].moves,
               (unsigned long long)stats[lv].moves);
    return 0;
}
