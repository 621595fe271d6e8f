/* games.h: stored games: loading, the seat a token speaks for, and a cache of decoded
 * games (commits go through the game service, game/service.h, which keeps it current). */
#ifndef API_GAMES_H
#define API_GAMES_H

#include "game.h"
#include "json_game.h"
#include "nodiscard.h"
#include "store.h"
#include "store_games.h"

/* A stored game, decoded. Large: allocate with games_load(). */
struct api_game {
    char id[AUTH_UUID_LEN + 1];        /* the game's id */
    struct store_game row;             /* the row: version, players (snapshot: see cached) */
    struct cc_game g;                  /* the decoded state */
    const char *names[CC_MAX_PLAYERS]; /* row.players[s].name */
    int cached;                        /* 1: from the cache (row.snapshot left empty) */
    int lent;                          /* 1: the cache's own, lent to an action (GAMES_ANY) */
    int given_back;                    /* with lent: its commit noted (games_remember) */
    unsigned epoch;                    /* store_epoch() of the read it came from (games.c) */
};

/*
 * Where games_load() may take a game from:
 * GAMES_ANY     the cache, whatever version it holds: for actions, whose commit checks
 *               the version (a stale copy is found out there: load again with GAMES_DB).
 *               The cache's game itself is lent, not copied: give it back with games_keep()
 *               once done with it (games_free() drops it);
 * GAMES_CURRENT the cache when it holds the version stored now (one small query), else
 *               the database: for reads;
 * GAMES_DB      the database.
 */
enum games_from { GAMES_ANY, GAMES_CURRENT, GAMES_DB };

/*
 * Sets up this server's cache of `slots` decoded games (0: none). A game and its version
 * identify a state, so a cached copy is never wrong, only maybe old: reads look up the
 * stored version first; actions find out at their commit. The reads' version queries
 * are batched (with the cache), and requests' moves are committed in batches by
 * `commit_threads` threads (0: each alone; batcher.h). Returns 0 or -1.
 */
int games_init(int slots, int commit_threads) NODISCARD;

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

/*
 * Puts `ag` (a state as stored, e.g. just committed, at version ag->row.version) into the
 * cache with `body` (if not NULL, `len` bytes: its GET answer, copied), unless the cache
 * holds a newer version of the game. A game the cache lent (GAMES_ANY) is not copied: its
 * slot notes the version and answer and waits for games_keep(); it must not change after.
 */
void games_remember(struct api_game *ag, const char *body, size_t len);

/* Frees a game from games_load(); NULL is fine. */
void games_free(struct api_game *ag);

/* games_free() for a caller done with `ag`, that hands a game the cache lent back to it
 * when committed since as the cache noted (games_remember), no newer version in between. */
void games_keep(struct api_game *ag);

/*
 * The seat whose token `token` is in game `ag` into *seat (each seat compared in constant
 * time), or else the seat bound to the person (0008) whose player token it is (found by its
 * hash, then compared in constant time; asked only when some seat of the game is bound), or
 * -1. A rematch seat whose token was handed out after `ag` was read (0009) is found by
 * asking the database again while `ag` shows some seat unclaimed; ag->row.players then
 * holds the seats as stored. *suspended is 1 (and *seat -1) when the token is the player
 * token of a person the operator suspended (0026). Returns STORE_OK, or the storage failure
 * of a lookup.
 */
enum store_status games_seat_of(struct api_game *ag, const char *token, int *seat,
                                int *suspended) NODISCARD;

/* 1 when this server keeps a cache of games (games_init with slots). */
int games_cache_on(void);

/* Calls use(arg, body, len) with the cached GET answer of game `id` at `version`, under the
 * cache's lock, when the cache holds it. Returns 1 when it did, else 0. */
int games_cached_body(const char *id, int version,
                      void (*use)(void *arg, const char *body, size_t len), void *arg);

/* The turn and scores of state `g` for the players' lists (struct store_turn; its phase a
 * static string). */
void games_turn(const struct cc_game *g, struct store_turn *out);
/* The game's status as the API shows it: "waiting", "active", "finished" or "aborted". */
const char *games_status(const struct api_game *ag);

/* The json_game() meta of `ag` as GET shows it: id, version, names, status, open seats. */
void games_meta(const struct api_game *ag, struct json_game_meta *meta);

#endif
