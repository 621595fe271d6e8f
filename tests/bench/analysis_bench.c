/* analysis_bench.c: the review of whole 2-player classic games (core/analysis.h), as the
 * analysis job runs it: CPU seconds a game at the default budget (issue 31: at most 10),
 * with the machine's load beside. Usage: bench-analysis [games, default 3] [iterations]
 * [deals] */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bot_analysis.h"
#include "randplay.h"

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double loadavg(void)
{
    double l = -1;
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fscanf(f, "%lf", &l) != 1) l = -1;
        fclose(f);
    }
    return l;
}

/* argv[i] as a whole number from 1 to 100000, or `dflt` when absent or not one. */
static unsigned arg_or(int argc, char **argv, int i, unsigned dflt)
{
    if (argc <= i) return dflt;
    char *end;
    unsigned long v = strtoul(argv[i], &end, 10);
    return *end || v < 1 || v > 100000 ? dflt : (unsigned)v;
}

int main(int argc, char **argv)
{
    static struct cc_bot_scratch s;
    static struct cc_game g;
    int games = (int)arg_or(argc, argv, 1, 3);
    struct cc_analysis_budget b = {.iterations =
                                       arg_or(argc, argv, 2, CC_ANALYSIS_DEFAULT_ITERATIONS),
                                   .deals = arg_or(argc, argv, 3, CC_ANALYSIS_DEFAULT_DEALS)};
    double worst = 0, total = 0;
    unsigned labels[CC_MOVE_LABEL_COUNT] = {0};
    printf("bench-analysis: %d 2-player classic games (greedy against mcts at 100 iterations), "
           "hard %u iterations, %u deals a candidate; load %.2f\n",
           games, b.iterations, b.deals, loadavg());
    for (int k = 0; k < games; k++) {
        struct cc_setup setup =
            randplay_setup(CC_RULESET_CLASSIC, 2, (struct cc_options){0}, 1000 + (uint64_t)k);
        if (cc_game_new(&g, &setup, NULL) != CC_OK) return 1;
        const struct cc_bot_budget mcts = {.iterations = 100};
        unsigned placements = 0;
        double t = 0;
        while (g.phase != CC_PHASE_FINISHED) {
            struct cc_action a;
            enum cc_bot_level lv = g.seat == 0 ? CC_BOT_GREEDY : CC_BOT_MCTS;
            if (cc_bot_think(&g, lv, g.turn * 31u + (uint64_t)k, &mcts, &s, &a) != CC_OK) return 1;
            if (g.phase == CC_PHASE_PLACE) {
                struct cc_move_review r;
                double c0 = cpu_now();
                if (cc_analyse_move(&g, &a, &b, g.turn, &s, &r) != CC_OK) return 1;
                t += cpu_now() - c0;
                labels[r.label]++;
                placements++;
            }
            if (cc_game_apply(&g, &a, NULL) != CC_OK) return 1;
        }
        printf("game %d: %u placements reviewed in %.2f s of CPU (%.1f ms each)\n", k + 1,
               placements, t, 1000 * t / placements);
        total += t;
        if (t > worst) worst = t;
    }
    printf("mean %.2f s, worst %.2f s of CPU a game (target <= 10); labels:", total / games, worst);
    for (unsigned i = 0; i < CC_MOVE_LABEL_COUNT; i++)
        printf(" %s %u", cc_move_label_name((enum cc_move_label)i), labels[i]);
    printf("; load %.2f\n", loadavg());
    return worst <= 10 ? 0 : 1;
}
