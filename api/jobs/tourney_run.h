/* tourney_run.h: the pairing of tournament rounds (issue 27): the job of no game (0027)
 * of kind "tournament_round" and subject "<tournament id>:<round>".
 *
 * Planned once per round: round 1 by the start (POST /v1/tournaments/{id}/start, or at
 * creation for `starts_at`: then due at that time, and the run starts the tournament, or
 * calls it off with fewer than two entrants), every later round by the transaction that
 * ends the round's last game (0032's trigger; the jobs' unique key makes a second plan a
 * no-op). A run pairs the round (api/game/tourney.h), stores the pairing once (a round
 * paired already keeps its tables), creates each table's game through the game service
 * bound to its table in the game's own transaction (a table takes one game), and then, in
 * one transaction, marks the round begun, writes `round_started`, removes the job and,
 * once somebody has left, plans the leavers' sweep (tourney_sweep.h). When
 * there is no next round (the swiss's rounds played, every round robin round played, one
 * knockout player left) it finishes the tournament the same way (`tournament_finished`,
 * with the final standings). A run killed at any point leaves the job to be claimed again
 * when its lease runs out; the next run finds what was written and goes on from there, so
 * with any number of servers every round is paired once and every game belongs to one
 * table. */
#ifndef API_TOURNEY_RUN_H
#define API_TOURNEY_RUN_H

#include "nodiscard.h"

#define TOURNEY_RUN_KIND     "tournament_round"
#define TOURNEY_RUN_LEASE_MS 10000 /* one run's lease (as 0032's plans write it) */

/* Registers the kind. Returns 0, or -1 when the registry is full. */
int tourney_run_init(void) NODISCARD;

#endif
