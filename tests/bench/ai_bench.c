/* ai_bench.c: the strength of the computer players: seat-swapped pairs of 2-player games on
 * the same shuffled decks, per ruleset, greedy against random, mcts against greedy, hard
 * against greedy and against mcts, and hard in one seat of 3 and 4 against mcts in the
 * others (the seat rotated over the same deck): win rate (a tie counts half; with 3 or 4
 * players the hard seat's win share, ties shared) with its 95 % Wilson interval, mean score
 * margin (over the best other seat), and the mean time a move of each side.
 * Usage: bench-ai [-p pairs] [-t think_ms] [-i iterations] [-r ruleset] [-j jobs] [-m which]
 *   -p  decks per ruleset and match (default 200: 400 2-player games, 600 of 3, 800 of 4)
 *   -t  mcts's and hard's thinking time a move in ms (default 100); -i  an iteration bound
 *       instead (0: none); with both, whichever ends first
 *   -r  only the rulesets whose label contains this text (e.g. "hills", "classic standard"),
 *       or with a leading '=' the one whose label is the rest ("=discovery": not the hand)
 *   -j  worker processes (default 1): each plays every j-th pair, each game on one core
 *   -m  a comma-separated list of gr (greedy vs random), mg (mcts vs greedy), hg (hard vs
 *       greedy), hm (hard vs mcts), hm3, hm4 (hard vs 2 or 3 mcts); both (default): gr,mg;
 *       hard: hg,hm,hm3,hm4
 *   -v  a line on stderr for each game (its margin), to follow a long run
 *   -c  cpu (default: the thinking time is the thread's CPU time, so that a loaded machine
 *       measures what one core buys) or wall (the monotonic clock, as the service uses) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bot.h"

static clockid_t think_clock = CLOCK_THREAD_CPUTIME_ID;
static bool verbose; /* -v: a line on stderr for each game played */

static double now(void)
{
    struct timespec ts;
    clock_gettime(think_clock, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint64_t now_us(void *ctx)
{
    (void)ctx;
    struct timespec ts;
    clock_gettime(think_clock, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* What one worker found for one (ruleset, match). */
struct result {
    double wins;         /* the first level's wins plus half its ties */
    double margin;       /* sum of its score minus the other's */
    unsigned games;      /* games played */
    unsigned ties;       /* games tied */
    double seconds[2];   /* time choosing place moves, per side (0: first level) */
    uint64_t moves[2];   /* place moves chosen, per side */
    uint64_t iterations; /* the first level's search iterations, over all its moves */
};

static struct cc_bot_scratch scratch;
static struct cc_game game;
static struct cc_bot_budget budget = {.now_us = now_us};

/* Plays one game of `setup` with the level of each seat; scores into score[]; the time and
 * moves of seat s go to r->seconds[side[s]]. */
static void play(const struct cc_setup *setup, const enum cc_bot_level *level, const unsigned *side,
                 uint64_t seed, int *score, struct result *r)
{
    if (cc_game_new(&game, setup, NULL) != CC_OK) {
        fprintf(stderr, "bench-ai: cannot create a game\n");
        exit(1);
    }
    while (game.phase != CC_PHASE_FINISHED) {
        struct cc_action a;
        unsigned seat = game.seat;
        bool place = game.phase == CC_PHASE_PLACE;
        double t0 = place ? now() : 0;
        uint64_t move_seed = seed ^ ((uint64_t)game.turn << 32) ^ seat;
        enum cc_status st = cc_bot_think(&game, level[seat], move_seed, &budget, &scratch, &a);
        if (place) {
            r->seconds[side[seat]] += now() - t0;
            r->moves[side[seat]]++;
            if (side[seat] == 0) r->iterations += scratch.iterations;
        }
        if (st != CC_OK || cc_game_apply(&game, &a, NULL) != CC_OK) {
            fprintf(stderr, "bench-ai: a bot's move was refused (%s)\n", cc_status_name(st));
            exit(1);
        }
    }
    for (unsigned s = 0; s < setup->nplayers; s++) score[s] = game.players[s].score;
}

/* One match: `first` in one seat against `second` in the others, of `nplayers`. */
struct match {
    const char *name; /* for -m */
    const char *label;
    enum cc_bot_level first, second;
    unsigned nplayers;
};

/* The decks i < pairs with i % jobs == job of the match, `first` in each seat in turn. */
static void run(uint8_t ruleset, struct cc_options o, const struct match *mt, unsigned pairs,
                unsigned job, unsigned jobs, struct result *r)
{
    memset(r, 0, sizeof *r);
    for (unsigned i = job; i < pairs; i += jobs) {
        struct cc_setup setup;
        memset(&setup, 0, sizeof setup);
        setup.ruleset = ruleset;
        setup.nplayers = (uint8_t)mt->nplayers;
        setup.options = o;
        setup.seed = 1000 + i; /* the same deck for both games of the pair */
        setup.start = -1;
        setup.deck_len = -1;
        for (unsigned first_seat = 0; first_seat < mt->nplayers; first_seat++) {
            enum cc_bot_level level[CC_MAX_PLAYERS];
            unsigned side[CC_MAX_PLAYERS];
            int score[CC_MAX_PLAYERS], best = -100000, level_with = 0;
            for (unsigned s = 0; s < mt->nplayers; s++) {
                level[s] = s == first_seat ? mt->first : mt->second;
                side[s] = s != first_seat;
            }
            play(&setup, level, side, setup.seed * 2 + first_seat, score, r);
            for (unsigned s = 0; s < mt->nplayers; s++) {
                if (s == first_seat) continue;
                if (score[s] > best) level_with = 0;
                if (score[s] >= best) {
                    best = score[s];
                    level_with++;
                }
            }
            int m = score[first_seat] - best;
            if (verbose)
                fprintf(stderr, "pair %u game %u: margin %+d of %s against %s\n", i, first_seat, m,
                        cc_bot_level_name(mt->first), cc_bot_level_name(mt->second));
            r->wins += m > 0 ? 1 : m == 0 ? 1.0 / (1 + level_with) : 0;
            r->ties += m == 0;
            r->margin += m;
            r->games++;
        }
    }
}

/* The same, split over `jobs` forked workers, summed. */
static void run_jobs(uint8_t ruleset, struct cc_options o, const struct match *mt, unsigned pairs,
                     unsigned jobs, struct result *sum)
{
    if (jobs <= 1) {
        run(ruleset, o, mt, pairs, 0, 1, sum);
        return;
    }
    int fd[16];
    pid_t pid[16];
    for (unsigned j = 0; j < jobs; j++) {
        int p[2];
        if (pipe(p) != 0 || (pid[j] = fork()) < 0) {
            perror("bench-ai");
            exit(1);
        }
        if (pid[j] == 0) {
            struct result r;
            close(p[0]);
            run(ruleset, o, mt, pairs, j, jobs, &r);
            if (write(p[1], &r, sizeof r) != (ssize_t)sizeof r) _exit(1);
            _exit(0);
        }
        close(p[1]);
        fd[j] = p[0];
    }
    memset(sum, 0, sizeof *sum);
    for (unsigned j = 0; j < jobs; j++) {
        struct result r;
        int status;
        if (read(fd[j], &r, sizeof r) != (ssize_t)sizeof r || waitpid(pid[j], &status, 0) < 0 ||
            status != 0) {
            fprintf(stderr, "bench-ai: a worker failed\n");
            exit(1);
        }
        close(fd[j]);
        sum->wins += r.wins;
        sum->margin += r.margin;
        sum->games += r.games;
        sum->ties += r.ties;
        for (int s = 0; s < 2; s++) {
            sum->seconds[s] += r.seconds[s];
            sum->moves[s] += r.moves[s];
        }
        sum->iterations += r.iterations;
    }
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

static void report(const char *label, const char *match, const struct result *r)
{
    double lo, hi;
    wilson(r->wins, r->games, &lo, &hi);
    char iters[32] = "";
    if (r->iterations)
        snprintf(iters, sizeof iters, "%8.0f", (double)r->iterations / (double)r->moves[0]);
    printf("%-26s %-16s %5u %6.1f %% [%5.1f, %5.1f] %4u %+7.1f %9.0f %9.0f %s\n", label, match,
           r->games, 100 * r->wins / r->games, 100 * lo, 100 * hi, r->ties, r->margin / r->games,
           1e6 * r->seconds[0] / (double)r->moves[0], 1e6 * r->seconds[1] / (double)r->moves[1],
           iters);
    fflush(stdout);
}

int main(int argc, char **argv)
{
    long pairs = 200, think_ms = 100, iterations = 0, jobs = 1;
    const char *only = "", *which = "both";
    int opt;
    while ((opt = getopt(argc, argv, "p:t:i:r:j:m:c:v")) != -1) {
        switch (opt) {
        case 'p':
            pairs = strtol(optarg, NULL, 10);
            break;
        case 't':
            think_ms = strtol(optarg, NULL, 10);
            break;
        case 'i':
            iterations = strtol(optarg, NULL, 10);
            break;
        case 'r':
            only = optarg;
            break;
        case 'j':
            jobs = strtol(optarg, NULL, 10);
            break;
        case 'm':
            which = optarg;
            break;
        case 'v':
            verbose = true;
            break;
        case 'c':
            think_clock = strcmp(optarg, "wall") == 0 ? CLOCK_MONOTONIC : think_clock;
            break;
        default:
            fprintf(stderr, "usage: bench-ai [-p pairs] [-t think_ms] [-i iterations] "
                            "[-r ruleset] [-j jobs] [-m gr,mg,hg,hm,hm3,hm4|both|hard] "
                            "[-c cpu|wall] [-v]\n");
            return 2;
        }
    }
    if (pairs < 1 || pairs > 100000) pairs = 200;
    if (think_ms < 0 || think_ms > 100000) think_ms = 100;
    if (iterations < 0 || iterations > 100000000) iterations = 0;
    if (jobs < 1 || jobs > 16) jobs = 1;
    budget.think_us = (uint32_t)(think_ms * 1000);
    budget.iterations = (uint32_t)iterations;
    if (strcmp(which, "both") == 0) which = "gr,mg";
    if (strcmp(which, "hard") == 0) which = "hg,hm,hm3,hm4";
    printf("bench-ai: %ld decks per ruleset and match, each played with the first level in "
           "every seat in turn; mcts and hard think %ld ms (%s clock)",
           pairs, think_ms, think_clock == CLOCK_MONOTONIC ? "wall" : "thread CPU");
    if (iterations) printf(" or %ld iterations", iterations);
    printf(" a move; %ld worker process(es), each game on one core\n", jobs);
    static const struct match matches[] = {
        {"gr", "greedy-random", CC_BOT_GREEDY, CC_BOT_RANDOM, 2},
        {"mg", "mcts-greedy", CC_BOT_MCTS, CC_BOT_GREEDY, 2},
        {"hg", "hard-greedy", CC_BOT_HARD, CC_BOT_GREEDY, 2},
        {"hm", "hard-mcts", CC_BOT_HARD, CC_BOT_MCTS, 2},
        {"hm3", "hard-2 mcts", CC_BOT_HARD, CC_BOT_MCTS, 3},
        {"hm4", "hard-3 mcts", CC_BOT_HARD, CC_BOT_MCTS, 4},
    };
    enum { NMATCHES = sizeof matches / sizeof matches[0] };
    bool on[NMATCHES] = {false};
    for (const char *w = which; *w;) {
        size_t len = strcspn(w, ",");
        bool known = false;
        for (unsigned k = 0; k < NMATCHES; k++)
            if (strlen(matches[k].name) == len && strncmp(w, matches[k].name, len) == 0)
                known = on[k] = true;
        if (!known) {
            fprintf(stderr, "bench-ai: unknown match in -m %s\n", which);
            return 2;
        }
        w += len + (w[len] == ',');
    }
    printf("%-26s %-16s %5s %8s %14s %4s %7s %9s %9s %8s\n", "ruleset", "match", "games", "wins",
           "95% Wilson", "ties", "margin", "us/move", "other us", "iters");
    static const struct {
        const char *label;
        uint8_t ruleset;
        struct cc_options o;
    } rulesets[] = {
        {"classic standard (farms)", CC_RULESET_CLASSIC, {0}},
        {"classic original", CC_RULESET_CLASSIC, {.edition = CC_EDITION_ORIGINAL}},
        {"classic standard + river", CC_RULESET_CLASSIC, {.river = 1}},
        /* Inns & Cathedrals and Traders & Builders (issue 24): every figure, extra turns. */
        {"classic + inns + traders",
         CC_RULESET_CLASSIC,
         {.expansions = CC_EXP_INNS | CC_EXP_TRADERS}},
        {"hills", CC_RULESET_HILLS, {0}},
        {"discovery", CC_RULESET_DISCOVERY, {0}},
        {"discovery hand of two", CC_RULESET_DISCOVERY, {.draw = CC_DRAW_HAND}},
    };
    unsigned p = (unsigned)pairs;
    for (unsigned i = 0; i < sizeof rulesets / sizeof rulesets[0]; i++) {
        if (only[0] == '=' ? strcmp(rulesets[i].label, only + 1) != 0
                           : !strstr(rulesets[i].label, only))
            continue;
        for (unsigned k = 0; k < NMATCHES; k++) {
            if (!on[k]) continue;
            struct result r;
            run_jobs(rulesets[i].ruleset, rulesets[i].o, &matches[k], p, (unsigned)jobs, &r);
            report(rulesets[i].label, matches[k].label, &r);
        }
    }
    printf(
        "wins: the first level's wins plus half its ties, with the 95 %% Wilson interval; "
        "margin: its score minus the other's a game; us/move: microseconds a place move of "
        "the first level, other us: of the others; iters: the first level's iterations a move\n");
    return 0;
}
