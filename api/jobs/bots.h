/* bots.h: computer players' seats: creating them, playing their turns as background jobs
 * (the job kind "bot", jobs.h), and the one place that asks the engine for a bot's move. */
#ifndef API_BOTS_H
#define API_BOTS_H

#include <stdatomic.h>
#include <stdint.h>

#include "game.h"
#include "json_in.h"
#include "nodiscard.h"
#include "store.h"
#include "store_games.h"

/* Registers the job kind "bot" (before jobs_start). Returns 0 or -1. */
int bots_init(void) NODISCARD;

/*
 * The move a computer player of `level` ("random", "greedy", "mcts", "hard") makes for the
 * move of `g` within about `think_ms`, into `out` (the draw in the draw phase, else a
 * placement); the level that chose it into *used (static). A pure function of (g as that
 * seat sees it, level, seed): a turn thought again after a crash gives the same move. Every
 * call of the engine's computer players goes through here. Returns CC_OK or the engine's
 * failure (CC_ERR_BAD_OPTION for an unknown level).
 */
enum cc_status bots_play_turn(const struct cc_game *g, const char *level, int think_ms,
                              uint64_t seed, struct cc_action *out, const char **used) NODISCARD;

/*
 * bots_play_turn() whose search ends early once *stop is 1 (NULL: never): a hint nobody
 * waits for any more. A stopped search still answers a legal move (the best found so far,
 * or greedy's choice). Every call of the engine's computer players goes through here.
 */
enum cc_status bots_think_stoppable(const struct cc_game *g, const char *level, int think_ms,
                                    uint64_t seed, const atomic_int *stop, struct cc_action *out,
                                    const char **used) NODISCARD;

/* The seed of a computer player's move in game `id` at state `g`: from the game's id and
 * the turn (never the clock). */
uint64_t bots_seed(const char *id, const struct cc_game *g);

/*
 * For the computer players among the seats of a new game (`in`->bots): marks players[s]
 * (level, think_ms) and wipes the seat's token (tokens[s] set to NULL): nobody acts for a
 * bot but the server. The other seats are left alone.
 */
void bots_seats_new(const struct json_new_game *in, int nplayers, struct store_player *players,
                    char (*token_text)[AUTH_TOKEN_LEN + 1], const char **tokens);

#endif
