/* games.h: stored games: loading, the seat a request speaks for, and a cache of decoded
 * games (commits go through the game service, game/service.h, which keeps it current). */
#ifndef API_GAMES_H
#define API_GAMES_H

#include "game.h"
#include "json_game.h"
#include "nodiscard.h"
#include "req.h"
#include "store.h"

/* A stored game, decoded. Large: allocate with games_load(). */
struct api_game {
    char id[AUTH_UUID_LEN + 1];        /* the game's id */
    struct store_game row;             /* the row: version, players (snapshot: see cached) */
    struct cc_game g;                  /* the decoded state */
    const char *names[CC_MAX_PLAYERS]; /* row.players[s].name */
    int cached;                        /* 1: a copy from the cache (row.snapshot left empty) */
    unsigned epoch;                    /* store_epoch() of the read it came from (games.c) */
};

/*
 * Where games_load() may take a game from:
 * GAMES_ANY     the cache, whatever version it holds: for actions, whose commit checks
 *               the version (a stale copy is found out there: load again with GAMES_DB);
 * GAMES_CURRENT the cache when it holds the version stored now (one small query), else
 *               the database: for reads;
 * GAMES_DB      the database.
 */
enum games_from { GAMES_ANY, GAMES_CURRENT, GAMES_DB };

/*
 * Sets up this server's cache of `slots` decoded games (0: none). A game and its version
 * identify a state, so a cached copy is never wrong, only maybe old: reads look up the
 * stored version first; actions find out at their commit. Returns 0 or -1.
 */
int games_init(int slots) NODISCARD;

/* Frees the cache. */
void games_shutdown(void);

/* Why games_fetch() found no game. */
enum games_fail {
    GAMES_OK = 0,      /* loaded */
    GAMES_NOT_FOUND,   /* no such game (or a malformed id) */
    GAMES_UNAVAILABLE, /* no database now */
    GAMES_CORRUPT,     /* the stored state does not decode */
    GAMES_NO_MEMORY,   /* out of memory */
    GAMES_ERROR        /* the database failed otherwise */
};

/*
 * Loads game `id` as games_load_at() does, for callers that answer no request (the game
 * service, the job workers): the game (free with games_free), or NULL with *why set.
 */
struct api_game *games_fetch(const char *id, enum games_from from, int version,
                             enum games_fail *why) NODISCARD;

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

/*
 * Puts `ag` (a state as stored, e.g. just committed, at version ag->row.version) into the
 * cache with `body` (if not NULL, `len` bytes: its GET answer, copied), unless the cache
 * holds a newer version of the game.
 */
void games_remember(const struct api_game *ag, const char *body, size_t len);

/* Frees a game from games_load(); NULL is fine. */
void games_free(struct api_game *ag);

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

/* The turn and scores of state `g` for the players' lists (struct store_turn; its phase a
 * static string). */
void games_turn(const struct cc_game *g, struct store_turn *out);
/* The game's status as the API shows it: "waiting", "active", "finished" or "aborted". */
const char *games_status(const struct api_game *ag);

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

/* The json_game() meta of `ag` as GET shows it: id, version, names, status, open seats. */
void games_meta(const struct api_game *ag, struct json_game_meta *meta);

#endif
