/* engine_bench.c: random full games on one core: games/s, placements/s, state size.
 * Usage: bench-engine [seconds per ruleset, default 3] [only rows whose label holds this]
 * (the base row, classic standard, always runs: the expansions' rows compare with it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "randplay.h"

static double clock_of(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double now(void)
{
    return clock_of(CLOCK_MONOTONIC);
}

/* CPU time of the process: on a shared machine the rate per CPU second is the steadier one. */
static double cpu_now(void)
{
    return clock_of(CLOCK_PROCESS_CPUTIME_ID);
}

/* Placements per CPU second of the first classic row (the base game): the expansions' rows
 * are compared with it per tile placed (issue 24: within 10 %). */
static double base_rate;

/* The rows to run: those whose label holds it (NULL: all). */
static const char *only;

static void bench(const char *label, uint8_t ruleset, struct cc_options o, double seconds)
{
    if (only && base_rate > 0 && !strstr(label, only)) return;
    static struct cc_game g;
    static struct cc_events ev;
    struct randplay_stats st = {0};
    double t0 = now(), t = t0, c0 = cpu_now();
    uint64_t seed = 1;
    while (t - t0 < seconds) {
        for (int i = 0; i < 200; i++) {
            if (!randplay_game(&g, &ev, ruleset, 2, o, seed++, &st, NULL, NULL)) {
                fprintf(stderr, "bench: seed %llu: a legal move was refused\n",
                        (unsigned long long)(seed - 1));
                exit(1);
            }
        }
        t = now();
    }
    double dt = t - t0, dc = cpu_now() - c0;
    printf("%-28s %9.0f games/s %11.0f placements/s  (%llu games, %.1f s; %.0f games, %.0f "
           "placements per CPU second)\n",
           label, (double)st.games / dt, (double)st.placements / dt, (unsigned long long)st.games,
           dt, dc > 0 ? (double)st.games / dc : 0.0, dc > 0 ? (double)st.placements / dc : 0.0);
    double rate = dc > 0 ? (double)st.placements / dc : 0.0;
    if (base_rate == 0 && ruleset == CC_RULESET_CLASSIC) base_rate = rate;
    if (o.expansions && base_rate > 0)
        printf("%-28s %+8.1f %% time per tile placed against classic standard (target: at most "
               "+10 %%)\n",
               "", 100.0 * (base_rate / rate - 1));
}

int main(int argc, char **argv)
{
    double seconds = argc > 1 ? strtod(argv[1], NULL) : 3.0;
    if (!(seconds > 0 && seconds < 3600)) seconds = 3.0;
    if (argc > 2) only = argv[2];
    printf("engine: random 2-player games, uniform random legal placement and follower "
           "choice, farms scored, unbounded board, one core\n");
    printf("state size: %zu bytes (struct cc_game); snapshot at most %d bytes\n",
           sizeof(struct cc_game), CC_SNAPSHOT_MAX);
    bench("classic standard", CC_RULESET_CLASSIC, (struct cc_options){0}, seconds);
    bench("classic original", CC_RULESET_CLASSIC, (struct cc_options){.edition = 1}, seconds);
    bench("classic standard + river", CC_RULESET_CLASSIC, (struct cc_options){.river = 1}, seconds);
    /* Inns & Cathedrals and Traders & Builders (issue 24): 42 more tiles a game, so compare
     * placements per second with the base game's. */
    bench("classic + inns", CC_RULESET_CLASSIC, (struct cc_options){.expansions = CC_EXP_INNS},
          seconds);
    bench("classic + traders", CC_RULESET_CLASSIC,
          (struct cc_options){.expansions = CC_EXP_TRADERS}, seconds);
    bench("classic + inns + traders", CC_RULESET_CLASSIC,
          (struct cc_options){.expansions = CC_EXP_INNS | CC_EXP_TRADERS}, seconds);
    if (cc_tileset_get(CC_RULESET_HILLS))
        bench("hills", CC_RULESET_HILLS, (struct cc_options){0}, seconds);
    if (cc_tileset_get(CC_RULESET_DISCOVERY)) {
        bench("discovery", CC_RULESET_DISCOVERY, (struct cc_options){0}, seconds);
        bench("discovery hand", CC_RULESET_DISCOVERY, (struct cc_options){.draw = CC_DRAW_HAND},
              seconds);
    }
    return 0;
}
