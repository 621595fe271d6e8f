/* randplay.h: a random player for tests and benchmarks (uniform legal placement, of either
 * hand tile in the discovery hand variant, then a uniform choice among "no follower", each
 * feature a follower may go on, and the ruleset's own follow-ups: stables and hikes in
 * hills, the withdrawal of each own follower in discovery, the large follower, builder and
 * pig of the expansions of classic on each feature they may go on). */
#ifndef RANDPLAY_H
#define RANDPLAY_H

#include <stdbool.h>
#include <stdint.h>

#include "game.h"

/* Statistics of played games. */
struct randplay_stats {
    uint64_t games;      /* games finished */
    uint64_t placements; /* tiles placed */
    uint64_t events;     /* events emitted */
};

/* A callback run after every accepted action (may be NULL). */
typedef void (*randplay_hook)(const struct cc_game *g, const struct cc_action *a,
                              const struct cc_events *ev, void *ctx);

/* The setup of a standard game of `ruleset` with `nplayers` from `seed`: the shuffled
 * standard deck, the default start tile, the options as given. */
struct cc_setup randplay_setup(uint8_t ruleset, uint8_t nplayers, struct cc_options options,
                               uint64_t seed);

/*
 * Plays a whole game of `ruleset` with `nplayers` from `seed` (standard shuffled deck,
 * options as given) choosing random legal moves from a generator seeded with `seed`.
 * `ev` is the caller's event buffer (reset per action). Returns false if the engine ever
 * refused a move it listed as legal.
 */
bool randplay_game(struct cc_game *g, struct cc_events *ev, uint8_t ruleset, uint8_t nplayers,
                   struct cc_options options, uint64_t seed, struct randplay_stats *stats,
                   randplay_hook hook, void *ctx);

#endif
