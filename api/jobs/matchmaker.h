/* matchmaker.h: play now (issue 26): the job of no game (0027, kind "matchmaker") that pairs
 * compatible seeks into new games.
 *
 * One job for all seeks: any server's POST /v1/seeks makes it due at once (matchmaker_kick,
 * which wakes every server's workers; during a run, due when that run ends: one run at a
 * time), and a run plans the next while seeks wait (at most
 * MATCHMAKER_IDLE_MS later: rating ranges widen, computer players become due, live seeks
 * lapse). A run expires the lapsed seeks, reads the waiting ones and the blocks among their
 * owners (one read each) and, pool by pool (the canonical game: json_seek.h), oldest first,
 * gathers in memory seeks that accept each other: never the same player twice, never two
 * players of whom one blocked the other, each rating inside the other's range widened by
 * MATCHMAKER_WIDEN a side for every MATCHMAKER_WIDEN_MS waited. Then, across pools, the
 * tables whose last seek came first are made first.
 * A full table becomes a game through the game service (game_create_many, MATCHMAKER_BATCH
 * tables a transaction: seats bound to the seekers in random order, the pool's clock and
 * rated flag); a seek whose bot_after_seconds
 * have passed gets the missing seats filled by computer players of the nearest rating in
 * its pool (GET /v1/bots), together with other waiting seeks that accept computer players.
 *
 * Exactly once with any number of servers: the game's creation binds its seeks in its own
 * transaction, only if each one still waits (store_game_create, ST_SEEKS_BIND), so a seek
 * joins one game even when two runs meet (a lease ran out) or a
 * server dies mid-run (kill -9: the job's lease runs out and another server runs it).
 */
#ifndef API_MATCHMAKER_H
#define API_MATCHMAKER_H

#include "nodiscard.h"

#define MATCHMAKER_KIND     "matchmaker"
#define MATCHMAKER_LEASE_MS 30000 /* one run's lease ... */
#define MATCHMAKER_RUN_MS   10000 /* ... of which it makes tables this long at most */
#define MATCHMAKER_BATCH    32    /* tables created in one transaction */
#define MATCHMAKER_IDLE_MS  2500  /* the next run at the latest while seeks wait */
#define MATCHMAKER_WIDEN    50.0  /* a rating range widens this much a side ... */
#define MATCHMAKER_WIDEN_MS 5000  /* ... for every this long a seek waited */

/* Registers the kind (before jobs_start). Returns 0 or -1. */
int matchmaker_init(void) NODISCARD;

/* Makes the matchmaker due at once on whichever server claims it first (a new seek). */
int matchmaker_kick(void) NODISCARD;

#endif
