/* games.h: stored games for requests: loading, the seat a request speaks for, commits, and
 * a cache of decoded games. */
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
    int clock_auto;                    /* 1: the server acts for a timed-out seat (clocks.c) */
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

/* The json_game() meta of `ag` as GET shows it: id, version, names, status, open seats. */
void games_meta(const struct api_game *ag, struct json_game_meta *meta);

/* How games_commit() ended. */
enum games_commit {
    GAMES_COMMITTED = 0, /* stored: ag->row and the cache hold the new state */
    GAMES_STALE,         /* nothing stored: ag was the cache's copy and the game has moved on since:
                            load it again with GAMES_DB and try the action again */
    GAMES_FAILED         /* nothing stored: *failure says why (STORE_CONFLICT: the game moved on;
                            STORE_DUPLICATE: c->idem's key was stored by a racing request; ...) */
};

/*
 * Stores the action described by `c` on game `ag` (store_game_commit: the new snapshot,
 * the action, its events and c->idem, guarded by the version): sets c->id and c->version
 * from `ag` (and c->turn from ag->g unless the caller filled it), the caller fills the rest.
 * On success moves ag->row on (version + 1,
 * c->last_seq) and puts the new state into the cache with `body` (its GET answer, `len`
 * bytes, copied; may be NULL). The caller maps a failure to HTTP (problem_store).
 */
enum games_commit games_commit(struct api_game *ag, struct store_commit *c, const char *body,
                               size_t len, enum store_status *failure) NODISCARD;

#endif
