/* testutil.h: small helpers shared by the engine's unit tests (testutil.c): formatting,
 * invariant and snapshot checks, actions to apply and their expected outcome, the FNV-1a
 * hash and the signature over many random games. */
#ifndef TESTUTIL_H
#define TESTUTIL_H

#include <criterion/parameterized.h>
#include <stddef.h>
#include <stdint.h>

#include "game.h"

/* The FNV-1a offset basis: the hash of nothing. */
#define TU_FNV_INIT 0xcbf29ce484222325ull

/* Frees parameters cr_malloc'd for a parameterized test. */
void tu_free_params(struct criterion_test_params *crp);

/* The parameters 0 .. n-1 (size_t, in Criterion's shared memory, where a test process finds
 * them at the same address): one test for each row of a table of n. */
struct criterion_test_params tu_index_params(size_t n);

/* printf into one of a few rotating static buffers (tests run one per process). */
const char *tu_format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* "N NE C" for a mask of locations, "-" for none. */
const char *tu_locations(unsigned mask);

/* Asserts every invariant of the game. */
void tu_check(const struct cc_game *g);

/* Asserts that the snapshot of `g` decodes to `g` byte for byte. */
void tu_check_snapshot(const struct cc_game *g);

/*
 * Asserts that replaying `log[0..n)` from a new game of `s` gives `g` byte for byte
 * (`again` is the caller's scratch game: the state is too large for the stack).
 */
void tu_assert_replays(const struct cc_game *g, const struct cc_setup *s,
                       const struct cc_action *log, size_t n, struct cc_game *again);

/* The setup of a game the engine deals: `ruleset` (enum cc_ruleset), `nplayers` seats,
 * `options`, the shuffle of `seed`, the default start tile and the standard deck. */
struct cc_setup tu_setup(int ruleset, unsigned nplayers, struct cc_options options, uint64_t seed);

/* A placement at (x, y) with `rot` quarter turns of `tile` (CC_NO_TILE: the drawn one). */
struct cc_action tu_place(int x, int y, int rot, uint8_t tile);

/* `a` with a follower deployed at location `loc` of the placed tile. */
struct cc_action tu_follower(struct cc_action a, int loc);

/* Applies `a` by the seat to move, asserting it is accepted and every invariant holds
 * after it; `ev` (reset first) gets its events, unless NULL. */
void tu_ok(struct cc_game *g, struct cc_action a, struct cc_events *ev);

/* Applies `a` as given (seat included), expecting `want`; checks that it emitted no event
 * and changed nothing. */
void tu_refused_as(struct cc_game *g, struct cc_action a, enum cc_status want);

/* tu_refused_as() by the seat to move. */
void tu_refused(struct cc_game *g, struct cc_action a, enum cc_status want);

/*
 * Asserts that the listed placements of `g` (of both hand tiles in the hand variant) are
 * exactly the positions the validator accepts, and, for about `samples` of them, that the
 * listed follower locations are exactly those at which a follower is accepted.
 */
void tu_cross_check(const struct cc_game *g, unsigned samples);

/* FNV-1a: `h` (TU_FNV_INIT to begin) extended by the `n` bytes at `p`. */
uint64_t tu_fnv(uint64_t h, const void *p, size_t n);

/*
 * The signature of `ruleset`: the FNV-1a hash over the snapshots of the final states of
 * `games` random games (randplay.h) of seeds 0, 1 ..., with 2 + seed % 4 players and the
 * options `options(seed)` (all zero when `options` is NULL). Asserts every game is played
 * to its end.
 */
uint64_t tu_signature(uint8_t ruleset, struct cc_options (*options)(uint64_t seed), uint64_t games);

#endif
