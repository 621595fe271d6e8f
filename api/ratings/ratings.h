/* ratings.h: the rating update of one rated game of 2 to RATINGS_MAX_SEATS seats, from its
 * finishing order (api.md, "Ratings and leaderboards" and "Additions II"): each seat's
 * N-1 pairwise results (ties as draws), each weighted 1/(N-1), in that seat's one
 * Glicko-2 update. Pure functions: no I/O, no heap, no globals. */
#ifndef API_RATINGS_H
#define API_RATINGS_H

#include "glicko2.h"
#include "nodiscard.h"

#define RATINGS_MAX_SEATS   6  /* seats of a game at most (the contract's 2 to 6) */
#define RATINGS_SUBJECT_MAX 64 /* bytes of a subject's name with its NUL */
#define RATINGS_ACTIVE_DAYS 90 /* the leaderboard lists ratings with a game this recent */

/* How a seat ended a game, for its place. */
struct ratings_seat_end {
    int score;  /* its final score */
    int out_at; /* 0: still in at the end; else when it resigned or timed out (any number
                   that grows with time, such as the game's version then; > 0) */
};

/* A seat's outcome in the counts of a profile. */
enum ratings_outcome {
    RATINGS_WON = 0, /* first, alone */
    RATINGS_DRAWN,   /* first, shared */
    RATINGS_LOST     /* not first */
};

/*
 * The think class of a computer player that takes `think_ms` a move: "fast" under 100 ms,
 * "normal" 100 to 999, "slow" 1,000 and more (api.md, Additions II). A static string.
 */
const char *ratings_think_class(int think_ms);

/*
 * The name of the rating of a seat (the key of its rows, migrations/0023): the person's id
 * when `person_id` is given, else "bot:<level>:<think class>" for a computer player of
 * `bot` level. Writes it into out[RATINGS_SUBJECT_MAX] and returns 0; -1 when neither is
 * given, or the id or level is empty, too long or holds a character other than letters,
 * digits, '-' and '_' (so that the name needs no quoting anywhere).
 */
int ratings_subject(const char *person_id, const char *bot, int think_ms,
                    char out[RATINGS_SUBJECT_MAX]) NODISCARD;

/* A seat as rated before the game, with its place in it. */
struct ratings_seat {
    struct glicko2_rating rating; /* before the game (as stored: not aged) */
    long long last_rated_ms;      /* when its last rated game ended (ms since 1970), 0: never */
    int place;                    /* 0 first; equal places tie (ratings_finishing_order) */
};

/*
 * The finishing order of `n` seats (2 <= n <= RATINGS_MAX_SEATS) into places[] (0 best):
 * seats still in rank above every seat that resigned or timed out, by score (equal scores
 * tie); those that left rank by when they left, a later one above an earlier one (equal
 * out_at tie). A place is the number of seats ranked strictly above (1224 ranking).
 * Returns 0, or -1 (places[] untouched) for n out of range or a negative out_at.
 */
int ratings_finishing_order(int n, const struct ratings_seat_end *seats, int places[]) NODISCARD;

/* The outcome of the seat at `place` among `n` places[] (won, drawn: first shared, lost). */
enum ratings_outcome ratings_outcome_of(int n, const int places[], int seat);

/*
 * The rating seat `s` brings to a game that ends at `now_ms`: as stored, its deviation grown
 * by the rating periods since its last rated game (glicko2_periods; none for a seat never
 * rated, or a clock that went back). The other seats' updates play against it, and a
 * profile read just before the game's end showed it; game_finished's "before" is it.
 */
struct glicko2_rating ratings_seat_now(const struct ratings_seat *s, long long now_ms);

/*
 * The new ratings of the `n` seats of one rated game that ended at `now_ms` (2 <= n <=
 * RATINGS_MAX_SEATS), into out[] by seat. Seat i's one update has n-1 results, one against
 * each other seat j (1 when i placed above j, 0.5 for the same place, 0 below), each
 * weighted 1/(n-1), against j's rating as it stood before the game with its deviation aged
 * to now (ratings_seat_now); i's own deviation grows by the rating periods since its last rated
 * game (glicko2_periods; none for a seat never rated, or a clock that went back). Returns
 * GLICKO2_OK, or GLICKO2_BAD_INPUT (out[] unspecified) for n out of range or a rating
 * glicko2_update() refuses.
 */
enum glicko2_status ratings_update_game(int n, const struct ratings_seat *seats, long long now_ms,
                                        const struct glicko2_params *params,
                                        struct glicko2_rating out[]) NODISCARD;

#endif
