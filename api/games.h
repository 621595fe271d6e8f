/* games.h: loading a stored game for a request, with the answers for what can go wrong. */
#ifndef API_GAMES_H
#define API_GAMES_H

#include "game.h"
#include "req.h"
#include "store.h"

/* A stored game, decoded. Large: allocate with games_load(). */
struct api_game {
    char id[AUTH_UUID_LEN + 1];        /* the game's id */
    struct store_game row;             /* the row: version, players, snapshot */
    struct cc_game g;                  /* the decoded state */
    const char *names[CC_MAX_PLAYERS]; /* row.players[s].name */
};

/*
 * Loads and decodes game `id`. Returns the game (free with games_free), or NULL after
 * answering 404 not_found, 503 database_unavailable or 500 into `resp`.
 */
struct api_game *games_load(const char *id, struct api_response *resp);

/* Frees a game from games_load(); NULL is fine. */
void games_free(struct api_game *ag);

/* Sets resp's ETag to the quoted `version`. */
void games_etag(struct api_response *resp, int version);

/* Answers a storage failure (503 for STORE_UNAVAILABLE, else 500). */
void games_store_failed(struct api_response *resp, enum store_status s);

#endif
