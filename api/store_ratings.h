/* store_ratings.h: the store family of ratings (migrations/0023, implemented by
 * store_ratings.c): the update of a rated game's seats inside the transaction that ends
 * the game, and the readings of profiles, histories, leaderboards and computer players. */
#ifndef API_STORE_RATINGS_H
#define API_STORE_RATINGS_H

#include "ratings/ratings.h"
#include "store.h"

struct pg_conn; /* libpq's PGconn: callers outside the store pass it through unopened */

/* A seat of a rated game that ended. */
struct ratings_game_seat {
    const char *person_id; /* the person bound to the seat (lower-case UUID), or NULL */
    const char *bot;       /* without a person: the computer player's level */
    int think_ms;          /* with bot: its time a move (gives the think class) */
    int score;             /* its final score */
    int out_at;            /* 0: still in at the end; else when it resigned or timed out
                              (the game's version then: a later one ranks higher) */
};

/* A rated game that ended, as the game service knows it at its end. */
struct ratings_game {
    const char *game_id;                               /* UUID */
    const char *pool;                                  /* its ruleset */
    int nseats;                                        /* 2 .. RATINGS_MAX_SEATS */
    struct ratings_game_seat seats[RATINGS_MAX_SEATS]; /* by seat */
};

/* What a rated game did to one seat's rating (for game_finished and the answers). */
struct ratings_change {
    int rated;                         /* 1: updated; 0: the game was left unrated (see below) */
    int place;                         /* 0 first, equal places tie */
    char subject[RATINGS_SUBJECT_MAX]; /* the rating's name (ratings_subject) */
    struct glicko2_rating before;      /* as stored before the game (1500/350/0.06 when new) */
    struct glicko2_rating after;       /* as stored after it */
    int games; /* the subject's rated games in the pool, this one included */
};

/*
 * Rates game `g` inside the caller's open transaction on *pgp (the connection the store
 * began it on: store files pass their PGconn **; the game service's ending transaction
 * calls this after its version-guarded UPDATE of the game succeeded and before COMMIT).
 * It makes the rows of subjects rated for the first time (1500 / 350 / 0.06), locks the
 * seats' rows in the order of their names (two games ending at once wait for each other,
 * never deadlock), reads them and the database's clock, computes the update
 * (ratings_finishing_order, ratings_update_game with the production parameters: time away
 * is the time since each row's last_rated_at), and writes each row (rating, counts,
 * last_rated_at = now()) and one rating_history row per seat. out[] (g->nseats entries,
 * by seat) gets each seat's change.
 *
 * Exactly once comes from the caller: the game's version guard lets one transaction end
 * the game. Behind it, rating_history's primary key (game, seat) refuses a second update
 * of the same game: STORE_DUPLICATE, and the transaction is then aborted.
 *
 * A game that seats one subject twice (one person in two seats, or two computer players
 * of the same level and think class) is left unrated: nothing is written, out[].rated is
 * 0, STORE_OK. STORE_ERROR for a game out of shape (seats out of range, a seat with
 * neither a person nor a level, a pool name that is not plain); else the store's failures
 * (STORE_UNAVAILABLE, STORE_ERROR), after which the caller rolls back. Writes nothing
 * outside the caller's transaction.
 */
enum store_status ratings_apply_game(struct pg_conn **pgp, const struct ratings_game *g,
                                     struct ratings_change out[]) NODISCARD;

/*
 * ratings_apply_game() in a transaction of its own on the calling thread's connection,
 * committed when it succeeds, rolled back otherwise. For tests and tools; the game
 * service calls ratings_apply_game() inside the transaction that ends the game.
 */
enum store_status store_ratings_apply(const struct ratings_game *g,
                                      struct ratings_change out[]) NODISCARD;

#endif
