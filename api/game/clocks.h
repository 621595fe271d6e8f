/* clocks.h: clocks of games (issue 12): the turn deadline of play-by-post and the bank of
 * live play, kept in the game's row (games.clock, 0011) and timed by the server that
 * commits each action; what happens at the deadline (job kind "deadline": the seat's turn
 * played as the greedy computer player would, or its resignation) and a quarter of the
 * turn's time before it (job kind "deadline_near"), by whichever server runs (jobs.h).
 *
 * A game without a clock costs one test of clock.kind per commit and nothing else.
 */
#ifndef API_CLOCKS_H
#define API_CLOCKS_H

#include <stddef.h>

#include "game.h"
#include "json_out.h"
#include "nodiscard.h"
#include "store.h"
#include "store_games.h"

#define CLOCKS_TURN_MIN      5       /* turn_seconds at least */
#define CLOCKS_TURN_MAX      2592000 /* turn_seconds at most (30 days) */
#define CLOCKS_BANK_MIN      1       /* initial_seconds at least */
#define CLOCKS_BANK_MAX      2592000 /* initial_seconds at most (30 days) */
#define CLOCKS_INCREMENT_MAX 86400   /* increment_seconds at most (a day) */
#define CLOCKS_TIMEOUTS_MAX  3       /* timeouts in a row after which a seat resigns */

struct store_commit;

/* Registers the job kinds "deadline" and "deadline_near" (before jobs_start). 0 or -1. */
int clocks_init(void) NODISCARD;

/* Now by the server's real-time clock, in ms since 1970. */
long long clocks_now_ms(void);

/* `ms` (since 1970) as RFC 3339 UTC with milliseconds into `out`. */
void clocks_rfc3339(long long ms, char out[32]);

/*
 * Starts the clock `c` (its kind and settings filled in, the rest anything) of a new game
 * `g` at `now_ms`: every bank full, the first turn begun. For creation and rematches.
 */
void clocks_begin(struct store_clock *c, const struct cc_game *g, long long now_ms);

/*
 * Adds the background jobs of the clock `c` of state `g` after a commit at `now_ms` to
 * `plan`: a new turn's deadline and deadline_near (`new_turn`), their removal once
 * finished, else nothing.
 */
void clocks_jobs(const struct store_clock *c, const struct cc_game *g, int new_turn,
                 long long now_ms, struct store_jobs *plan);

/*
 * For game_commit() of a game with a clock `cl` (kind set): moves it on for the state `g`
 * commit `c` stores (a new turn: the bank of the seat that moved charged with the time since
 * the turn began, plus the increment; its timeouts in a row cleared when it moved itself,
 * counted when the server acted for it, `by_clock`; the next deadline; ended_by_timeout when
 * c->result is "timeout"), fills c->clock_json and c->deadline from the buffers given
 * (STORE_CLOCK_JSON_MAX and 32 bytes), and adds its jobs to `plan` (clocks_jobs).
 */
void clocks_commit(struct store_clock *cl, const struct cc_game *g, struct store_commit *c,
                   int by_clock, char *clock_buf, char *deadline_buf, struct store_jobs *plan);

/* Writes the settings of clock `c` (of a kind) as an object: turn_seconds, or
 * initial_seconds and increment_seconds; on_timeout. A game's "clock" and a seek's pool. */
void clocks_settings_json(struct json_out *o, const struct store_clock *c);

/*
 * For the state's JSON: "clock" (the settings), "deadline" (RFC 3339, null once finished);
 * `c` of kind 0 writes nothing.
 */
void clocks_json(struct json_out *o, const struct store_clock *c, const struct cc_game *g);

/* Writes the turn_timed_out event (seq `seq`) of clock `cl` for the seat the server acts
 * for now (`resign`: by resigning, else by autoplay) as an element of the open array `w`. */
void clocks_json_timed_out(struct json_out *w, const struct store_clock *cl, int resign, int seq);

/* Writes the events array of the deadline_near event (seq `seq`) of clock `cl` into `buf`
 * (`cap` bytes). 0, or -1 when it does not fit. */
int clocks_json_near(const struct store_clock *cl, int seq, char *buf, size_t cap) NODISCARD;

/* Seat `seat`'s bank in ms as of now (STORE_CLOCK_BANK), never below 0. */
long long clocks_bank_now(const struct store_clock *c, const struct cc_game *g, unsigned seat);

/* 1 when a move of the seat to move of `g` now comes too late (409 turn_timed_out). */
int clocks_expired(const struct store_clock *c, const struct cc_game *g);

#endif
