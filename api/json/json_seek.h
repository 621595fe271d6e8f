/* json_seek.h: a POST /v1/seeks body (issue 26), decoded and checked by the decoder of new
 * games (json_in_new_game), and the canonical game it asks for: the seek's pool, equal for
 * two seeks exactly when they may be paired (ruleset, options after defaults, player count,
 * clock kind and values, rated flag). The matchmaker builds its game from the pool. */
#ifndef API_JSON_SEEK_H
#define API_JSON_SEEK_H

#include <stddef.h>

#include "json_in.h"
#include "nodiscard.h"
#include "store_games.h"

#define JSON_SEEK_BOT_AFTER_MIN 5      /* bot_after_seconds at least */
#define JSON_SEEK_BOT_AFTER_MAX 600    /* and at most */
#define JSON_SEEK_RATING_MAX    5000.0 /* rating_range bounds within [0, this] */

/* A decoded seek. */
struct json_seek {
    char ruleset[24]; /* the ruleset's name (the rating's pool) */
    int players;      /* 2..6 */
    int live;         /* 1: a bank clock, 0: turn_seconds (correspondence) */
    int has_range;    /* 1: "rating_range": [min, max] */
    double rating_min, rating_max;
    int bot_after_s; /* "bot_after_seconds", or 0 */
    char *pool;      /* the canonical game (JSON text), malloc'd */
};

/*
 * Decodes a POST /v1/seeks body {"ruleset"?, "options"?, "players"?, "clock", "rated"?,
 * "rating_range"?, "bot_after_seconds"?} into `out` (free out->pool). Returns 0, or -1 with
 * `err` filled in (out->pool NULL).
 */
int json_in_seek(const char *body, size_t len, struct json_seek *out,
                 struct json_err *err) NODISCARD;

/*
 * The POST /v1/games body of the game of pool `pool` (json_seek.pool) with seats `seats`
 * (nseats JSON objects as json_in_new_game reads them: {"name": ...}, {"bot": ...}), as
 * malloc'd text, or NULL (out of memory, or a pool that is no JSON object).
 */
char *json_seek_game_body(const char *pool, const char *const *seats, int nseats);

#endif
