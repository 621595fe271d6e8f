/* standings.h: a tournament's games as data, each game's points and the standings
 * (api.md, "Tournaments" and "Additions II"). Pure functions: no I/O, no heap, no globals.
 *
 * Entrants are numbered 0..n-1 in seed order: 0 is the top seed. The caller orders them
 * (the server: rating best first, then the earlier join), so the same entrants and the
 * same results always give the same standings and pairings.
 *
 * Points are counted in twelfths (TOURNEY_POINT), so that every game's points are whole
 * numbers and equal points compare equal: a seat's points are (N - rank) / (N - 1) of an
 * N-seat game, seats sharing places sharing their points (1, 1/2, 1/3, 2/3, 1/4 ... are
 * all multiples of 1/12). A bye is a win: one point. */
#ifndef API_STANDINGS_H
#define API_STANDINGS_H

#include "nodiscard.h"

#define TOURNEY_MAX_PLAYERS 256 /* entrants of a tournament at most */
#define TOURNEY_MAX_SEATS   4   /* seats of a tournament game at most (the contract's 2..4) */
#define TOURNEY_POINT       12  /* one point, in the twelfths standings count in */

/* One game of a round (or a bye), as paired and, once ended, as it ended. */
struct tourney_game {
    int nseats;                    /* 2..TOURNEY_MAX_SEATS; 1: a bye for player[0] */
    int player[TOURNEY_MAX_SEATS]; /* the entrant at each seat, in seat order */
    int ended;                     /* 1: score, out_at and first_seat hold its end */
    int score[TOURNEY_MAX_SEATS];  /* each seat's final score */
    int out_at[TOURNEY_MAX_SEATS]; /* 0: in at the end; else when it resigned or timed out
                                      (grows with time; a later one ranks above) */
    int first_seat;                /* the seat that moved first (knockout's last tie rule) */
    int points[TOURNEY_MAX_SEATS]; /* tourney_game_points() writes: twelfths per seat */
};

/*
 * Each seat's points of ended game `g` into g->points (twelfths): the finishing order of
 * ratings_finishing_order() (still in by score, then the later resignation), place r of N
 * worth (N - r) / (N - 1) with r from 1, seats sharing places r..r+s-1 sharing their
 * points evenly. A bye: TOURNEY_POINT for its player. Returns 0, or -1 for a game that
 * has not ended or has an nseats out of range (points untouched).
 */
int tourney_game_points(struct tourney_game *g) NODISCARD;

/*
 * The seat of ended game `g` that advances in a knockout: the best place; among seats
 * sharing it, the higher score; then the seat that moved later (its turn came later after
 * g->first_seat: the starting player loses ties, as in tournament play). Never a tie.
 * A bye: seat 0. Returns the seat, or -1 as tourney_game_points() does.
 */
int tourney_knockout_winner(const struct tourney_game *g);

/* One entrant's line of the standings. */
struct tourney_standing {
    int player;   /* the entrant */
    int points;   /* game points and byes, twelfths */
    int buchholz; /* the final points of every opponent, once per game met (twelfths);
                     a bye adds nothing */
    int scores;   /* the sum of its game scores */
    int games;    /* games played (byes not counted) */
    int byes;     /* byes received */
    int reached;  /* knockout: rounds it got through (a won game or a bye each); else 0 */
    int rank;     /* 1 best; entrants equal on every key share a rank */
};

/*
 * The standings of `n` entrants (1..TOURNEY_MAX_PLAYERS) after the ended games of
 * `games` (ngames; games not ended are skipped; their points are computed here, the array
 * is not changed) into out[n], best first: points, then Buchholz, then the sum of scores,
 * then the seed (the lower number first, sharing the rank: a seed only orders the list).
 * `knockout`: 1 puts the rounds reached before the points (the champion first).
 * Returns 0, or -1 for n out of range or a game naming an entrant outside 0..n-1.
 */
int tourney_standings(int n, const struct tourney_game *games, int ngames, int knockout,
                      struct tourney_standing *out) NODISCARD;

#endif
