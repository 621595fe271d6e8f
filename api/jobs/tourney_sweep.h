/* tourney_sweep.h: the sweep of a tournament's leavers (issue 27): the job of no game of
 * kind STORE_TOURNEY_SWEEP_KIND, subject the tournament's id.
 *
 * An entrant who leaves a running tournament forfeits its game of the round running, and
 * any game of a later round that a pairing under way gave it. Both are written to happen
 * however a server dies: the leave's transaction plans the sweep a little ahead (the leave
 * resigns its game itself before answering; the sweep does it if that server died first),
 * and the transaction that begins a round plans it at once once anybody has left (a leave
 * that came while the round was paired and its games created found no game of it). A run
 * resigns, through the game service, every seat not resigned yet of the tournament's
 * running games held by an entrant who left in that game's round or before
 * (store_tourney_left_seats); resigning is a version-checked commit, so two runs, or a run
 * and the leave itself, resign a seat once. A run killed leaves the job to the next claim
 * after its lease. */
#ifndef API_TOURNEY_SWEEP_H
#define API_TOURNEY_SWEEP_H

#include "nodiscard.h"

/* Registers the kind. Returns 0, or -1 when the registry is full. */
int tourney_sweep_init(void) NODISCARD;

#endif
