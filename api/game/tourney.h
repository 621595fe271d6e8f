/* tourney.h: a tournament's stored rows (store_tourney_rounds.h) given to the pure pairing
 * and standings (pairing.h, standings.h): the next round's pairing, or the end, and the
 * standings as GET /v1/tournaments/{id} answers them. Entrants are numbered in seed order
 * (fixed at the start: 0032's tournament_start), so the same entrants and results give the
 * same pairings. Every seat 0 moves first (the knockout's last tie rule). */
#ifndef API_TOURNEY_H
#define API_TOURNEY_H

#include "pairing.h"
#include "standings.h"
#include "store_tourney_rounds.h"

/* Tournament `t`'s ended games and byes of the rounds before `before` (0: all rounds) into
 * games[] (room for t->ntables). Returns how many. */
int tourney_history(const struct store_tourney *t, int before, struct tourney_game *games);

/*
 * The pairing of round `round` (1 first) of `t` into *out. Returns 0 (paired: at least one
 * table of two or more), 1 (no such round: the tournament is over), or -1 (out of range,
 * out of memory).
 */
int tourney_pair(const struct store_tourney *t, int round, struct tourney_round *out);

/* The standings of `t` as a JSON array (TournamentStanding in openapi.yaml), malloc'd, or
 * NULL (out of memory, rows out of range). */
char *tourney_standings_json(const struct store_tourney *t);

#endif
