/* replay.h: a game as it stood after a past version, rebuilt from its setup and stored
 * actions through the engine (GET /v1/games/{id}, board.svg, board.png ?version=N). */
#ifndef API_REPLAY_H
#define API_REPLAY_H

#include "game_answers.h"
#include "nodiscard.h"
#include "req.h"

/*
 * Reads the query parameter "version" of `req` into *version: -1 when absent (the
 * current version). Returns 0, or -1 after answering 400 invalid_parameter (not one
 * whole number from 1 to INT_MAX).
 */
int replay_version_param(const struct api_request *req, struct api_response *resp,
                         int *version) NODISCARD;

/*
 * Game `id` as it stood after version `version` (1: as created), public parts as a read
 * shows them: the current game when `version` is the stored one, else rebuilt by the
 * engine from the setup and the stored actions (never put into the cache). Returns the
 * game (games_free) with row.version = `version` and the lobby's state of then: row.state
 * (waiting while a seat was open, aborted after an abort) and each seat's row.players[].open
 * (an open seat's name its placeholder), or NULL after answering 404 not_found,
 * 404 version_not_found (after the stored version), 503 or 500 into `resp`.
 */
struct api_game *replay_load(const char *id, int version, struct api_response *resp) NODISCARD;

/* Sets the Cache-Control of an answer about past version `version`: it never changes. */
void replay_cache_forever(struct api_response *resp);

#endif
