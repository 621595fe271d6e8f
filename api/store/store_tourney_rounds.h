/* store_tourney_rounds.h: tournaments after the start (migrations/0032): the start, a
 * tournament read whole for pairing and standings (its entrants in seed order, its tables
 * with their games' ends), a round's pairing stored once, a round begun or the tournament
 * finished in one transaction with its event and the job's completion, the events, and a
 * withdrawal after the start. */
#ifndef API_STORE_TOURNEY_ROUNDS_H
#define API_STORE_TOURNEY_ROUNDS_H

#include "auth.h"
#include "nodiscard.h"
#include "store.h"
#include "store_tournaments.h"

#define STORE_TOURNEY_SEATS 4 /* seats of a tournament table at most */

/* The sweep of a tournament's leavers (api/jobs/tourney_sweep.h): a job of no game of this
 * kind, its subject the tournament's id, written in the transaction of every leave after
 * the start and of every round's beginning once somebody has left. */
#define STORE_TOURNEY_SWEEP_KIND     "tournament_sweep"
#define STORE_TOURNEY_SWEEP_LEASE_MS 10000
/* A leave resigns its game itself before it answers; its sweep, due this much later, is
 * there for a server killed between the leave's commit and that resignation. */
#define STORE_TOURNEY_SWEEP_BACKSTOP_MS 2000

/* An entrant, in seed order. */
struct store_tourney_entrant {
    char id[AUTH_UUID_LEN + 1];
    char name[STORE_NAME_MAX + 1];
    int left_round; /* 0: still in; else the round it left in (it forfeits the rest) */
};

/* A table of a round (one seat: a bye) and its game's end. */
struct store_tourney_table {
    int round;                       /* 1 first */
    int table_no;                    /* 0 first */
    int nseats;                      /* 1..STORE_TOURNEY_SEATS */
    int seat[STORE_TOURNEY_SEATS];   /* the entrant (index in entrants) at each seat */
    char game[AUTH_UUID_LEN + 1];    /* its game, or "" (a bye, or not created yet) */
    int ended;                       /* 1: the game finished or was aborted */
    int score[STORE_TOURNEY_SEATS];  /* with ended: the final scores */
    int out_at[STORE_TOURNEY_SEATS]; /* with ended: 0, or the version it resigned at */
};

/* A tournament as pairing and standings need it. */
struct store_tourney {
    char format[16];  /* "swiss", "round_robin", "knockout" */
    char ruleset[32]; /* its ruleset's name */
    char *options_json;
    char *clock_json; /* or NULL */
    int players_per_game;
    int rounds; /* swiss: its rounds; else 0 */
    int rated;
    char status[16];
    int round; /* the round running (0: not started) */
    char organiser[AUTH_UUID_LEN + 1];
    int n; /* entrants */
    struct store_tourney_entrant *entrants;
    int ntables;
    struct store_tourney_table *tables; /* by round, then table */
};

/* Reads tournament `id` into *t (free with store_tourney_free either way). STORE_OK,
 * STORE_NOT_FOUND, or a failure. */
enum store_status store_tourney_load(const char *id, struct store_tourney *t) NODISCARD;

void store_tourney_free(struct store_tourney *t);

/* Starts tournament `id` if it is open (0032's tournament_start): *found[cap] gets what it
 * found ("started", "too_few", "running", "finished", "cancelled"; "" when there is none).
 * `keyed` (unless NULL) keeps the answer of outcome 1 (started now) or 0 (anything else) in
 * the start's transaction: STORE_DUPLICATE, and nothing done, when its key has one. */
enum store_status store_tourney_start(const char *id, char *found, size_t cap,
                                      store_tourney_keyed keyed, void *arg) NODISCARD;

/* Calls off open tournament `id` (an announced start with too few entrants). */
enum store_status store_tourney_cancel(const char *id) NODISCARD;

/* Stores the pairing of round `round` of `id` (tables_json: a JSON array of tables, each an
 * array of entrant ids by seat), unless the round is paired already. */
enum store_status store_tourney_pairing_put(const char *id, int round,
                                            const char *tables_json) NODISCARD;

/*
 * In one transaction: round `round` of `id` begins (or, round 0, the tournament finishes),
 * its event `type` with `data_json` is written, job `job_id` is removed, and (a round) the
 * next round planned at once when its games have all ended already, and the sweep due at
 * once when an entrant has left (one who left while the round was paired holds a seat in
 * it). *done is 0 when the round (the finish) had happened already: nothing was written
 * but the job's removal.
 */
enum store_status store_tourney_advance(const char *id, int round, const char *type,
                                        const char *data_json, long long job_id,
                                        int *done) NODISCARD;

/*
 * Player `person` leaves running tournament `id`: *was_in 1 when it was an entrant still
 * in (then its game being played of the round running and its seat there into game[] and
 * *seat, or "" and -1). The tournament's row is locked first, so a round that begins
 * (store_tourney_advance) does so wholly before or after the leave: after it, the leave
 * finds the new round's game; before, the round's beginning plans the sweep that resigns
 * it. The same transaction plans the tournament's sweep STORE_TOURNEY_SWEEP_BACKSTOP_MS
 * ahead: the caller resigns the game found, and the sweep does it if the caller could not.
 * `keyed` (unless NULL) keeps the answer of outcome *was_in in the same transaction
 * (STORE_DUPLICATE, and nothing done, when its key has one).
 */
enum store_status store_tourney_withdraw(const char *id, const char *person, int *was_in,
                                         char game[AUTH_UUID_LEN + 1], int *seat,
                                         store_tourney_keyed keyed, void *arg) NODISCARD;

/* A seat of a tournament's game held by an entrant who left (store_tourney_left_seats). */
struct store_left_seat {
    char game[AUTH_UUID_LEN + 1];
    int seat;
};

/*
 * The seats not resigned yet of the running games of `id` held by entrants who left in
 * that game's round or before, at most `cap` into out[] (*n of them), in round and table
 * order: what the tournament's sweep resigns.
 */
enum store_status store_tourney_left_seats(const char *id, struct store_left_seat *out, int cap,
                                           int *n) NODISCARD;

#endif
