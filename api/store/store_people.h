/* store_people.h: people, the players' identities across games (store_player.c), their
 * games (store_inbox.c) and their webhooks. */
#ifndef API_STORE_PEOPLE_H
#define API_STORE_PEOPLE_H

#include "store_games.h"
#include "store_webhooks.h"

/* A person: one identity across games (POST /v1/players; the table people, 0007). Not a
 * seat: struct store_player is a game's seat. */
struct store_person {
    char id[AUTH_UUID_LEN + 1];        /* UUID, lower-case */
    char name[STORE_NAME_MAX + 1];     /* UTF-8 */
    uint8_t token_hash[AUTH_HASH_LEN]; /* SHA-256 of the person's token */
    int suspended;                     /* 1: suspended by the operator (0026; by_token only) */
};

/*
 * Writes a new person (p->id, name, token_hash) and the idempotent answer `idem` (NULL
 * for none) in one transaction: STORE_OK, STORE_DUPLICATE when idem's key was stored by a
 * racing request (nothing written) ...
 */
enum store_status store_person_create(const struct store_person *p,
                                      const struct store_idem *idem) NODISCARD;

/* The person whose token hashes to `hash` into `out`: STORE_OK, STORE_NOT_FOUND ... */
enum store_status store_person_by_token(const uint8_t hash[AUTH_HASH_LEN],
                                        struct store_person *out) NODISCARD;

/*
 * Replaces the token of the person whose token hashes to `old_hash` now by `new_hash`,
 * filling out's id and name: STORE_OK, or STORE_NOT_FOUND when no token hashes to
 * `old_hash` (any more: of two replacements racing with one token, one wins and the
 * other finds nothing, and nothing is changed for it).
 */
enum store_status store_person_token_replace(const uint8_t old_hash[AUTH_HASH_LEN],
                                             const uint8_t new_hash[AUTH_HASH_LEN],
                                             struct store_person *out) NODISCARD;

/*
 * A person's games (GET /v1/players/me/games, migrations/0012): the seats bound to the
 * person, in the list's order (its turn first, then the nearest deadline, then the most
 * recently changed, then the game's id), paged by the keys of the last entry shown.
 */
struct store_inbox_key {
    int rank;                     /* 0: the person's turn, 1: not */
    long long deadline;           /* players.inbox_deadline */
    long long recency;            /* players.inbox_recency */
    char game[AUTH_UUID_LEN + 1]; /* the game's id */
};

/* What to list. */
struct store_inbox_query {
    const char *status;                  /* only games of this stored status, or NULL */
    int my_turn;                         /* 1: only its turn, 0: only not, -1: either */
    const struct store_inbox_key *after; /* list after this entry, or NULL from the start */
    int limit;                           /* entries at most (1 ..) */
};

/* One seat of a listed game. */
struct store_inbox_seat {
    int seat;                      /* 0 .. */
    char name[STORE_NAME_MAX + 1]; /* UTF-8 */
    int has_score;                 /* 0: not known (a game stored before 0012, unmoved) */
    int score;                     /* with has_score */
    int has_rating;                /* 1: a rated game that ended rated this seat (0025) */
    int rating_before;             /* with has_rating: its rating before the game (rounded) */
    int rating_after;              /* with has_rating: after it */
};

/* One entry of the list: a game of the person. */
struct store_inbox_entry {
    struct store_inbox_key key;                    /* its place in the order */
    char ruleset[24];                              /* the ruleset's name */
    char status[16];                               /* as stored */
    int version;                                   /* the game's version */
    int seat;                                      /* the person's seat */
    int turn_number;                               /* -1: not known (see has_score) */
    int turn_seat;                                 /* the seat to move, or -1 */
    char turn_phase[12];                           /* "draw", "place", "finished", "" */
    int nseats;                                    /* entries in seats */
    struct store_inbox_seat seats[CC_MAX_PLAYERS]; /* by seat */
    int rated;                                     /* 1: a rated game (0025) */
};

/* A page of the list. */
struct store_inbox_page {
    long my_turn_count;                /* the person's games where it is its turn */
    int more;                          /* 1 when entries follow this page */
    int n;                             /* entries in entries */
    struct store_inbox_entry *entries; /* malloc'd (store_inbox_free), in order */
};

/*
 * The page `q` asks for of the games of the person whose token hash is `token_hash`, found
 * in the same statement (one round trip), into `who` (as store_person_by_token gives it:
 * the caller compares who->token_hash in constant time) and `out`: STORE_OK (free the page
 * with store_inbox_free), STORE_NOT_FOUND when the hash is no person's, or the failure.
 */
enum store_status store_inbox_page(const uint8_t token_hash[AUTH_HASH_LEN],
                                   const struct store_inbox_query *q, struct store_person *who,
                                   struct store_inbox_page *out) NODISCARD;

/*
 * store_inbox_page() of the person whose id is `person_id` (a UUID), whose name goes into
 * who->name (who->token_hash is the person's: never shown): q->status must be set (the
 * public list shows finished games only) and q->my_turn -1. STORE_NOT_FOUND when there is
 * no such person. (GET /v1/players/{id}/games, 0025.)
 */
enum store_status store_player_games_page(const char *person_id, const struct store_inbox_query *q,
                                          struct store_person *who,
                                          struct store_inbox_page *out) NODISCARD;

/* Frees a page's entries; a zeroed page is fine. */
void store_inbox_free(struct store_inbox_page *p);

/*
 * A person's webhook (POST|GET|DELETE /v1/players/me/webhook, 0012): the events of every
 * game in which the person holds a seat (one webhooks row per such game, owner
 * "person:<id>", sharing the game webhooks' outbox and delivery). Sets or replaces it
 * (URL and secret) with the idempotent answer `idem` (NULL for none) in one transaction.
 */
enum store_status store_person_hook_set(const char *person, const char *url, const char *secret,
                                        const char *format,
                                        const struct store_idem *idem) NODISCARD;

/* Removes person `person`'s webhook and its deliveries; *deleted says whether there was one. */
enum store_status store_person_hook_delete(const char *person, int *deleted) NODISCARD;

/* A person's webhook over its games: as struct store_webhook_state, summed. */
struct store_person_hook_state {
    struct store_webhook_state w;       /* delivered_up_to unused (-1) */
    long games;                         /* games it covers */
    char error_game[AUTH_UUID_LEN + 1]; /* the game of w's last error, or "" */
};

/* Person `person`'s webhook into `out`: STORE_OK, STORE_NOT_FOUND when it has none ... */
enum store_status store_person_hook_get(const char *person,
                                        struct store_person_hook_state *out) NODISCARD;

#endif
