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
    struct glicko2_rating before;      /* what it brought to the game (ratings_seat_now: as
                                          stored, the deviation aged to the game's end;
                                          1500/350/0.06 when new) */
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
 * is the time since each row's last_rated_at to the transaction's now()), and writes each
 * row (rating, counts, last_rated_at) and one rating_history row per seat, both stamped
 * with the clock at the write (so histories are in the order of the updates). out[]
 * (g->nseats entries, by seat) gets each seat's change.
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

#define RATINGS_EVENT_JSON_MAX 2048 /* bytes of ratings_changes_json() (6 seats fit) */

/*
 * What game_finished carries of rated game `g` whose seats changed as ch[] (rated): a JSON
 * array, one entry a seat in seat order, {"seat", "player_id" (or null), "bot" and
 * "think_class" (a computer player's, or null), "place" (1 first, shared places tie),
 * "before": {"rating", "deviation"} (what the seat brought: the deviation aged by its time
 * away, as the update used it), "after": {...}}, rating
 * and deviation rounded, into buf[cap] (RATINGS_EVENT_JSON_MAX). 0, or -1 when it does not
 * fit.
 */
int ratings_changes_json(const struct ratings_game *g, const struct ratings_change ch[], char *buf,
                         size_t cap) NODISCARD;

/*
 * ratings_apply_game() in a transaction of its own on the calling thread's connection,
 * committed when it succeeds, rolled back otherwise. For tests and tools; the game
 * service calls ratings_apply_game() inside the transaction that ends the game.
 */
enum store_status store_ratings_apply(const struct ratings_game *g,
                                      struct ratings_change out[]) NODISCARD;

#define STORE_POOL_MAX 32 /* bytes of a pool (ruleset) name with its NUL */

/* A rating row as read (migrations/0023). */
struct store_rating {
    char subject[RATINGS_SUBJECT_MAX]; /* a person's id or "bot:<level>:<class>" */
    char pool[STORE_POOL_MAX];         /* the ruleset */
    char name[STORE_NAME_MAX + 1];     /* the person's name, or the bot's level */
    char bot[RATINGS_SUBJECT_MAX];     /* a computer player's level, or "" */
    char think_class[8];               /* its think class, or "" */
    struct glicko2_rating rating;      /* as stored after the last rated game */
    int games;                         /* rated games in the pool */
    int won;                           /* first alone */
    int drawn;                         /* first, shared */
    int lost;                          /* any other place */
    long long last_rated_ms;           /* ms since 1970 of the last rated game, 0: none */
};

/* A point of a rating's history: one rated game. */
struct store_rating_point {
    char game_id[AUTH_UUID_LEN + 1]; /* the game */
    int seats;                       /* its seats */
    int place;                       /* the subject's place, 0 first */
    struct glicko2_rating before;    /* as stored before (not aged) */
    struct glicko2_rating after;     /* after */
    long long rated_ms;              /* when (ms since 1970) */
};

/* Rows read: ratings or history points. Free with store_ratings_free(). */
struct store_rating_list {
    int n;                             /* entries in rows or points */
    struct store_rating *rows;         /* ratings (profile, leaderboard, bots), or NULL */
    struct store_rating_point *points; /* history points, oldest first, or NULL */
    int more;                          /* 1: the leaderboard goes on after these */
    long long now_ms;                  /* the database's clock when read (to age deviations) */
};

/* Where a leaderboard page starts: after the entry with this rating and subject. */
struct store_board_after {
    double rating;                     /* the last entry's rating (INFINITY: from the top) */
    char subject[RATINGS_SUBJECT_MAX]; /* its subject ("" with INFINITY) */
};

/* Frees what a reader filled (the list itself is the caller's) and leaves the list empty
 * (all zero); takes a zeroed list. */
void store_ratings_free(struct store_rating_list *l);

/*
 * The person `person_id` (a UUID) and its ratings, one row per pool it has played rated
 * games in, by pool: *name gets its name (STORE_NAME_MAX + 1 bytes). STORE_NOT_FOUND
 * when there is no such person; else STORE_OK or the store's failures. Caller frees.
 */
enum store_status store_ratings_of_person(const char *person_id, char *name,
                                          struct store_rating_list *out) NODISCARD;

/*
 * The newest `limit` (1..1000) points of `subject`'s history in `pool`, oldest first.
 * STORE_OK (maybe none) or the store's failures. Caller frees.
 */
enum store_status store_rating_history(const char *subject, const char *pool, int limit,
                                       struct store_rating_list *out) NODISCARD;

/*
 * A page of `pool`'s leaderboard: ratings no longer provisional (deviation <= 110 as
 * stored) with a rated game within RATINGS_ACTIVE_DAYS, best first (then by subject,
 * descending), people only unless `bots`, the `limit` (1..100) entries after `after`;
 * out->more says whether more follow. Caller frees.
 */
enum store_status store_leaderboard(const char *pool, int bots, int limit,
                                    const struct store_board_after *after,
                                    struct store_rating_list *out) NODISCARD;

/* Every computer player's rating (every level, think class and pool rated), by level,
 * think class and pool. Caller frees. */
enum store_status store_bot_ratings(struct store_rating_list *out) NODISCARD;

#endif
