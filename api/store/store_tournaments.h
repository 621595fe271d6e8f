/* store_tournaments.h: tournaments' rows (migrations/0031): a tournament as its organiser
 * created it, its entrants joining and leaving while it is open, and its JSON for the
 * routes (built by PostgreSQL, as GET /v1/tournaments answers it). */
#ifndef API_STORE_TOURNAMENTS_H
#define API_STORE_TOURNAMENTS_H

#include "nodiscard.h"
#include "store.h"

/* A new tournament (json_tournament.h's fields, checked). */
struct store_tournament_new {
    const char *id;           /* UUID */
    const char *name;         /* its name */
    const char *organiser;    /* the creating player's id */
    const char *format;       /* "swiss", "round_robin", "knockout" */
    const char *ruleset;      /* the ruleset's name */
    const char *options_json; /* JSON object */
    int players_per_game;     /* 2..4 */
    int rounds;               /* swiss: its rounds; else 0 (stored NULL) */
    const char *clock_json;   /* JSON object, or NULL */
    int rated;                /* 1: rated games */
    int max_players;          /* entrants at most */
    const char *starts_at;    /* RFC 3339, or NULL */
};

/*
 * The answer of a keyed creation (Idempotency-Key) made from the new tournament as JSON
 * (store_tournament_json's, read in the creation's transaction), stored with it: called by
 * the store inside the transaction; NULL when it cannot be built (nothing is written).
 */
typedef const struct store_idem *(*store_tourney_answer)(void *arg, const char *json);

/* Writes tournament `t` (status open, no entrants), with `answer`'s (unless NULL) in the
 * same transaction (db_idem_put: STORE_DUPLICATE, and nothing written, when the key has an
 * answer already). STORE_OK or a failure. */
enum store_status store_tournament_create(const struct store_tournament_new *t,
                                          store_tourney_answer answer, void *arg) NODISCARD;

/* A keyed join, leave or start's answer (store_keyed, store_games.h). */
typedef store_keyed store_tourney_keyed;

/* What a join or a leave found. */
enum store_entry {
    STORE_ENTRY_DONE = 0, /* joined (left) now */
    STORE_ENTRY_ALREADY,  /* was an entrant already (was none) */
    STORE_ENTRY_NOT_OPEN, /* the tournament is no longer open: nothing changed */
    STORE_ENTRY_FULL      /* a join: max_players entrants already */
};

/*
 * Player `person` joins (`join` 1) or leaves (0) tournament `id` while it is open, in one
 * transaction holding the tournament's row (so max_players holds with any number of
 * servers): *entry says what happened; `keyed` (unless NULL) keeps the answer of *entry in
 * that transaction. STORE_OK, STORE_NOT_FOUND (no such tournament), STORE_DUPLICATE (the
 * key has an answer already: nothing done), or a failure.
 */
enum store_status store_tournament_entry(const char *id, const char *person, int join,
                                         enum store_entry *entry, store_tourney_keyed keyed,
                                         void *arg) NODISCARD;

/* Tournament `id` as JSON (Tournament in openapi.yaml: its settings, status, organiser and
 * entrants) into *json (malloc'd; the caller frees). STORE_OK, STORE_NOT_FOUND, or a
 * failure. */
enum store_status store_tournament_json(const char *id, char **json) NODISCARD;

/* The newest `limit` tournaments (of `status`, or any when NULL) as a JSON array of
 * TournamentSummary into *json (malloc'd). STORE_OK or a failure. */
enum store_status store_tournaments_list(const char *status, int limit, char **json) NODISCARD;

/* Where a tournament's events stand (store_tourney_events_each). */
struct store_tourney_progress {
    char status[16]; /* "open", "running", "finished", "cancelled" */
    int last_seq;    /* its newest event's seq (0: none yet) */
};

/*
 * Calls fn() for each event of tournament `id` after seq `after`, oldest first, at most
 * `limit` (0: none, only *progress): its seq, type and the event as JSON (TournamentEvent in
 * openapi.yaml, `len` bytes); a nonzero return stops there (STORE_ERROR). *count gets the
 * events passed, *progress the tournament's status and newest seq. STORE_OK, STORE_NOT_FOUND
 * (no such tournament), or a failure.
 */
enum store_status store_tourney_events_each(const char *id, int after, int limit,
                                            int (*fn)(void *arg, int seq, const char *type,
                                                      const char *json, size_t len),
                                            void *arg, int *count,
                                            struct store_tourney_progress *progress) NODISCARD;

#endif
