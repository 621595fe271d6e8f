/* pairing.h: a tournament round's pairings in the three formats (api.md, "Tournaments"):
 * swiss, round robin and knockout, 2 to 4 players per game. Pure and deterministic: no
 * I/O, no heap, no globals, no randomness; the same entrants (in seed order, 0 the top
 * seed: see standings.h) and the same results give the same pairings.
 *
 * Tables. A round of `a` active entrants and up to k per game has ceil(a / k) games whose
 * sizes differ by one at most, the larger ones first (k = 3, a = 7: 3, 2, 2). With k = 2
 * and an odd `a`, the one left over gets a bye (a game of one seat) instead; with k >= 3 no
 * one gets a bye while two are left to play.
 *
 * Seats. Within a game, the player who has moved first the fewest times so far sits first
 * (seat 0 moves first), then by seed; so over a tournament the first move goes round. (A
 * round robin at 2 a table alternates seats by round and table instead.)
 *
 * Swiss. Players are ordered by points (best first), then seed. The bye goes to a player
 * with the fewest byes so far (so never twice to one player while avoidable), the lowest
 * in that order. Then tables are filled from the top: the best unseated player with the
 * next best ones, a depth-first search over the order that takes the first table filling
 * in which at most R pairs of players at one table met before, for R = 0, 1, 2 ... in
 * turn: so players with equal points meet, and no two players meet again while a
 * pairing without it exists (found within PAIRING_SEARCH_STEPS steps of the search; past
 * it a repeat is allowed, which never happens with fields and round counts of real
 * tournaments). The bye is chosen before repeats: fewest byes first, then fewest repeats.
 *
 * Round robin. With 2 per game, the circle method (Berger tables): n - 1 rounds (n
 * rounds when n is odd, one bye a round), everyone meets everyone exactly once. With 3 or
 * 4, a schedule fixed before the first round, a round at a time: greedy tables (each
 * takes, one at a time, the unseated player who meets the fewest of the table again, then
 * has the most opponents not met left, then comes first counting from a start player),
 * then swaps of two players between tables while a swap lowers the round's cost (a pair
 * not met yet earns 1000, a pair that met m times costs m squared); the cheapest of
 * PAIRING_RR_STARTS start players wins. Rounds until every pair has met: 4 rounds for 9
 * at 3 a table and 5 for 16 at 4 (the least possible), at most half again the least
 * elsewhere up to 24 (tests/api/pairing_test.c); a small field whose tables cannot mix
 * (5 or 6 at 3 or 4 a table) has a pair meet in most rounds. A withdrawn player's seat
 * stays empty (a table left with one player is a bye).
 *
 * Knockout. The field is every active entrant who has lost no game (a game's winner is
 * tourney_knockout_winner()). It is seeded anew each round by seed. With m in the field
 * and k per game, the bracket is B = k^r >= m, and the round has B / k tables; m players
 * are spread over them as evenly as possible, the smaller tables to the top seeds (a
 * table of one is a bye): heads are seeds 1..B/k, then the rest fills the tables in
 * serpentine order from the bottom (1-8, 2-7, 3-6, 4-5; with 6 players 1 and 2 have
 * byes and 3-6, 4-5 play). A field of one is the champion: no more rounds.
 */
#ifndef API_PAIRING_H
#define API_PAIRING_H

#include "nodiscard.h"
#include "standings.h"

#define PAIRING_SEARCH_STEPS 200000 /* a swiss search's steps for one repeat allowance */
#define PAIRING_RR_STARTS    16     /* a round robin round's greedy starts (see above) */
#define PAIRING_MAX_RR_ROUNDS                                                                      \
    64 /* round robin rounds at most (a schedule longer than                                       \
          this is refused; 2 per game: n <= 64) */

/* The tables of one round. */
struct tourney_round {
    int ngames;                                    /* tables (byes included) */
    struct tourney_game game[TOURNEY_MAX_PLAYERS]; /* each: nseats, player[] set, not ended */
};

/*
 * The next swiss round of `n` entrants (seed order), `active[i]` 0 for an entrant who left,
 * after the ended games (and byes) of earlier rounds, history[nhistory], at up to
 * `per_game` (2..4) per table, into *out. Fewer than two active entrants: no tables.
 * Returns 0, or -1 for arguments out of range or a history game naming an entrant outside
 * 0..n-1 or not ended.
 */
int pairing_swiss(int n, const unsigned char *active, const struct tourney_game *history,
                  int nhistory, int per_game, struct tourney_round *out) NODISCARD;

/* The rounds of a round robin of `n` entrants at `per_game` per table, or -1 when out of
 * range (n < 2, per_game outside 2..4, more than PAIRING_MAX_RR_ROUNDS rounds). */
int pairing_round_robin_rounds(int n, int per_game);

/*
 * Round `round` (0 first) of a round robin of `n` entrants at `per_game` per table, the
 * seats of inactive entrants left out, into *out. Returns 0, or -1 for arguments out of
 * range (round too: see pairing_round_robin_rounds()).
 */
int pairing_round_robin(int n, const unsigned char *active, int per_game, int round,
                        struct tourney_round *out) NODISCARD;

/*
 * The next knockout round (see above) of `n` entrants after the ended games of earlier
 * rounds, into *out; no tables when at most one entrant is left in the field. *champion
 * (may be NULL) is set to the one left, or -1. Returns 0, or -1 as pairing_swiss().
 */
int pairing_knockout(int n, const unsigned char *active, const struct tourney_game *history,
                     int nhistory, int per_game, struct tourney_round *out,
                     int *champion) NODISCARD;

#endif
