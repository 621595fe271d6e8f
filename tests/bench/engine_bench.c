/* engine_bench.c: random full games on one core: games/s, placements/s, state size.
 * Usage: bench-engine [seconds per ruleset, default 3] [only rows whose label holds this]
 * (the base row, classic standard, always runs). An expansion's row plays its games and the
 * base game's in turns and compares their time per tile placed. */
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

/* The rows to run: those whose label holds it (NULL: all). */
static const char *only;

/* Random games of one configuration, each with its own next seed, counted in its stats. */
struct config {
    uint8_t ruleset;
    struct cc_options options;
    uint64_t seed;
    struct randplay_stats st;
    double cpu; /* CPU seconds spent in its games */
};

/* Plays games of `c` for at least `slice` CPU seconds. */
static void play(struct config *c, double slice)
{
    static struct cc_game g;
    static struct cc_events ev;
    double c0 = cpu_now(), t = c0;
    while (t - c0 < slice) {
        for (int i = 0; i < 10; i++) {
            if (!randplay_game(&g, &ev, c->ruleset, 2, c->options, c->seed++, &c->st, NULL, NULL)) {
                fprintf(stderr, "bench: seed %llu: a legal move was refused\n",
                        (unsigned long long)(c->seed - 1));
                exit(1);
            }
        }
        t = cpu_now();
    }
    c->cpu += t - c0;
}

static void report(const char *label, const struct config *c, double wall)
{
    printf("%-28s %9.0f games/s %11.0f placements/s  (%llu games, %.1f s; %.0f games, %.0f "
           "placements per CPU second)\n",
           label, (double)c->st.games / wall, (double)c->st.placements / wall,
           (unsigned long long)c->st.games, wall, c->cpu > 0 ? (double)c->st.games / c->cpu : 0.0,
           c->cpu > 0 ? (double)c->st.placements / c->cpu : 0.0);
}

static void bench(const char *label, uint8_t ruleset, struct cc_options o, double seconds)
{
    if (only && !strstr(label, only)) return;
    struct config c = {.ruleset = ruleset, .options = o, .seed = 1};
    double t0 = now();
    play(&c, seconds);
    report(label, &c, now() - t0);
}

/* An expansion's row (issue 24: "within 10 % of the base game's rate per tile placed", so
 * tiles placed a CPU second at least 90 % of the base game's, time per tile at most 1/0.9 of
 * it): its games and the base game's, in turns of 20 ms of CPU each, so that both see the
 * same machine (a shared one changes its speed by more than that from second to second). */
static void bench_expansion(const char *label, struct cc_options o, double seconds)
{
    if (only && !strstr(label, only)) return;
    struct config base = {.ruleset = CC_RULESET_CLASSIC, .seed = 1};
    struct config c = {.ruleset = CC_RULESET_CLASSIC, .options = o, .seed = 1};
    double t0 = now(), c0 = cpu_now();
    while (cpu_now() - c0 < 2 * seconds) {
        play(&base, 0.02);
        play(&c, 0.02);
    }
    report(label, &c, (now() - t0) * c.cpu / (c.cpu + base.cpu));
    double per_tile = c.cpu / (double)c.st.placements;
    double base_per_tile = base.cpu / (double)base.st.placements;
    printf("%-28s %8.1f %% of classic standard's rate per tile placed in the same turns "
           "(target: at least 90 %%); time per tile %+.1f %% (%.0f and %.0f ns)\n",
           "", 100.0 * base_per_tile / per_tile, 100.0 * (per_tile / base_per_tile - 1),
           1e9 * per_tile, 1e9 * base_per_tile);
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
    /* The base row always runs (with a filter too): the expansions' rows are read beside it. */
    const char *filter = only;
    only = NULL;
    bench("classic standard", CC_RULESET_CLASSIC, (struct cc_options){0}, seconds);
    only = filter;
    bench("classic original", CC_RULESET_CLASSIC, (struct cc_options){.edition = 1}, seconds);
    bench("classic standard + river", CC_RULESET_CLASSIC, (struct cc_options){.river = 1}, seconds);
    /* Inns & Cathedrals and Traders & Builders (issue 24): 42 more tiles a game, so compare
     * the time per tile placed with the base game's. */
    bench_expansion("classic + inns", (struct cc_options){.expansions = CC_EXP_INNS}, seconds);
    bench_expansion("classic + traders", (struct cc_options){.expansions = CC_EXP_TRADERS},
                    seconds);
    bench_expansion("classic + inns + traders",
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
