/* game.h: the engine's public interface -- a game as a plain fixed-size value
 * (game_types.h), and the actions that move it on. The functions that belong to a lower
 * module are declared in its header, included here: placements (placement.h), the
 * rulesets' columns and followers (rules.h), figures and seats of the modules (modules.h),
 * the board (board.h). */
#ifndef CC_GAME_H
#define CC_GAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "board.h"
#include "game_types.h"
#include "modules.h"
#include "nodiscard.h"
#include "placement.h"
#include "rules.h"

/*
 * Creates a game from `setup` into `g` (all of it is overwritten). Checks the player
 * count, options, start and deck against the ruleset. Emits the events of the setup
 * (hand variant: removed tiles and hands) into `ev` if not NULL.
 */
enum cc_status cc_game_new(struct cc_game *g, const struct cc_setup *setup,
                           struct cc_events *ev) NODISCARD;

/*
 * Applies `a` to `g`: validates everything first; on success changes `g` and appends
 * the events to `ev` (if not NULL; `ev->n` is not reset). On failure `g` and `ev` are
 * unchanged and the status says why.
 */
enum cc_status cc_game_apply(struct cc_game *g, const struct cc_action *a,
                             struct cc_events *ev) NODISCARD;

/* The square of the seat to move's k-th follower on the board (in piece order), as used
 * by the hike mask of struct cc_placement. Returns false if there is none. */
bool cc_hike_origin(const struct cc_game *g, unsigned k, int16_t *x, int16_t *y);

/*
 * Final scores if the game ended now: writes per seat the total and the columns into
 * `out` (nplayers entries). Pure; `g` is not changed. For a finished game, the scores.
 */
void cc_projected_scores(const struct cc_game *g, struct cc_player out[CC_MAX_PLAYERS]);

/* Bit mask of the seats that share the highest score among the seats still in (a seat
 * that resigned ranks below every seat still in: it never wins). */
unsigned cc_winners(const struct cc_game *g);

/*
 * Seat `seat` resigns (core/resign.c has the rules in full). Its pieces leave the board
 * without scoring, later turns skip it, and it ranks below every seat still in; when one
 * seat remains in, the game finishes (final scoring first) and that seat wins. Any seat
 * may resign at any time while the game runs. Fails with CC_ERR_GAME_FINISHED,
 * CC_ERR_NOT_YOUR_TURN (no such seat) or CC_ERR_ALREADY_RESIGNED, changing nothing;
 * on success appends CC_EV_SEAT_RESIGNED and what follows to `ev` (if not NULL).
 */
enum cc_status cc_game_resign(struct cc_game *g, uint8_t seat, struct cc_events *ev) NODISCARD;

/* The seats still in: not resigned (a bit mask). */
unsigned cc_seats_in(const struct cc_game *g);

/* How `g` ended: CC_RESULT_NONE while it runs, CC_RESULT_RESIGNATION when it finished
 * because one seat was left in, else CC_RESULT_COMPLETED. */
enum cc_result cc_game_result(const struct cc_game *g);

/* The seat after `seat` in turn order that is still in (`seat` itself if none is). */
uint8_t cc_next_seat(const struct cc_game *g, unsigned seat);

/*
 * Makes `dst` equal to `src` byte for byte again, given that `dst` was such a copy before
 * at most one action was applied to it (what search does: apply a candidate, evaluate,
 * reset). Copies only what one action can change: the board, the feature graph and the
 * frontier up to the tiles and squares it can reach, everything else whole (at mid-game
 * about a third of a full copy).
 */
void cc_game_reset(struct cc_game *dst, const struct cc_game *src);

/* Checks every invariant of `g`; returns CC_OK or CC_ERR_CORRUPT. */
enum cc_status cc_game_check(const struct cc_game *g) NODISCARD;

/* The same, and on failure the line of core/check.c that found the fault in *where. */
enum cc_status cc_game_check_where(const struct cc_game *g, int *where) NODISCARD;

/* Number of tiles still to come (draw pile, and in the hand variant the hands). */
unsigned cc_tiles_remaining(const struct cc_game *g);

/*
 * Whether `g` is played in the hand-of-two variant (discovery, option draw = hand): no draw
 * step, each seat holds CC_HAND_SIZE tiles (players[].hand) and a placement names one.
 */
bool cc_game_uses_hand(const struct cc_game *g);

/* Name of an event type ("tile_placed" ...) or a column ("road" ...). */
const char *cc_event_name(enum cc_event_type t);
const char *cc_column_name(enum cc_column c);

#define CC_SNAPSHOT_VERSION 2    /* 2: the expansions of classic; 1 still decodes */
#define CC_SNAPSHOT_MAX     8192 /* bytes an encoded game can take */

/*
 * Encodes `g` compactly (versioned) into `buf` (capacity `cap`); returns the length,
 * or 0 if `cap` is too small. Two games are equal iff their encodings are.
 */
size_t cc_game_encode(const struct cc_game *g, uint8_t *buf, size_t cap) NODISCARD;

/*
 * Decodes an encoding made by cc_game_encode() into `g`, rebuilding the feature graph.
 * Rejects anything malformed or inconsistent with CC_ERR_CORRUPT (never crashes).
 */
enum cc_status cc_game_decode(struct cc_game *g, const uint8_t *buf, size_t len) NODISCARD;

#endif
