/* game_answers.h: stored games as answers to requests (the routes' side of game/games.h):
 * loading a game or answering why not, the seat a request speaks for, the cached GET answer,
 * the ETag, and refusals of games not being played. */
#ifndef API_GAME_ANSWERS_H
#define API_GAME_ANSWERS_H

#include "games.h"
#include "nodiscard.h"
#include "req.h"
#include "store_games.h"

/* Answers the problem of games_fetch() failure `why` into `resp` (404, 503 or 500). */
void games_fail_answer(struct api_response *resp, enum games_fail why);

/*
 * Loads game `id`. Returns the game (free with games_free), or NULL after answering 404
 * not_found, 503 database_unavailable or 500 into `resp`.
 */
struct api_game *games_load(const char *id, enum games_from from,
                            struct api_response *resp) NODISCARD;

/* games_load() when the stored version is known already (GAMES_CURRENT does not ask
 * again unless `version` is -1). */
struct api_game *games_load_at(const char *id, enum games_from from, int version,
                               struct api_response *resp) NODISCARD;

/*
 * The version of game `id` stored now, for a read that may use the cache: one small
 * query, shared with the other reads waiting for one. With req->async the request waits
 * for it suspended: answers resp->suspend = API_SUSPEND_WAKE (call again when the request
 * runs again). Returns 1 after that or after answering a failure (404, 503, 500), else 0
 * with *version set (-1 without a cache: nothing was asked; load the game).
 */
int games_current_version(const char *id, const struct api_request *req, struct api_response *resp,
                          int *version) NODISCARD;

/*
 * Answers 200 with the cached GET /v1/games/{id} answer when the cache holds it for
 * `version`. Returns 1 after answering, else 0.
 */
int games_answer_cached(const char *id, int version, struct api_response *resp) NODISCARD;

/* Sets resp's ETag to the quoted `version`. */
void games_etag(struct api_response *resp, int version);

/*
 * The seat request `req` speaks for in game `ag`: the seat whose token its Authorization
 * header carries ("Bearer <token>"; each seat compared in constant time), or else the
 * seat bound to the person (0008) whose player token it carries (found by its hash, then
 * compared in constant time; asked only when some seat of the game is bound). Returns
 * the seat (0 .. ag->row.nplayers - 1), or -1 after answering 401 missing_token or
 * unknown_token (503 when the person cannot be looked up). Every route that acts for a
 * seat asks here, so a player token can do on its seat exactly what the seat's token can.
 * A rematch seat whose token was handed out after `ag` was read (0009) is found by asking
 * the database again while `ag` shows some seat unclaimed; ag->row.players then holds the
 * seats as stored.
 */
int games_seat(const struct api_request *req, struct api_game *ag,
               struct api_response *resp) NODISCARD;

/* Loads game `id` (current) and the seat the request speaks for (games_seat). Returns the game
 * (games_free) with the seat in *seat, or NULL after answering (404, 401, 403
 * player_suspended, 503 ...). */
struct api_game *games_load_seat(const struct api_request *req, struct api_response *resp,
                                 const char *id, int *seat) NODISCARD;

/*
 * Refuses an action on a game that is not being played (0009): while it waits for open
 * seats, or once aborted. Returns 0 when the game is waiting for nobody and not aborted
 * (it may still be finished: the engine says so), else 1 after answering 409
 * game_not_active.
 */
int games_not_active(const struct api_game *ag, struct api_response *resp) NODISCARD;

/* Answers 409 game_not_active for a game in `state`: waiting, aborted, or (playing) over
 * already, for a resignation. */
void games_not_active_answer(struct api_response *resp, enum store_game_state state);

#endif
