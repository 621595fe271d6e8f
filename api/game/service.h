/* service.h: the game service, the one owner of every change of a game (issue 23).
 *
 * Everything that changes a stored game goes through here, whoever asks: the HTTP routes
 * (routes_turn.c, routes_games.c, routes_rematch.c, routes_export.c, routes_lobby.c) after
 * decoding a request, and the job workers (bots.c, clocks_run.c, retention.c) with no
 * request at all. The service speaks in outcomes (enum game_outcome), never in HTTP
 * numbers: the routes map an outcome to its problem in one place (routes_game_outcome).
 *
 *   game_play()   an action of a seat: draw, place, resign, a computer player's move, or
 *                 the server's action for a seat whose time ran out (GAME_BY_CLOCK);
 *   game_commit() the one commit of a new state: version guard, the clock moved on, the
 *                 jobs' plan (the outbox: jobs, and webhook deliveries by the store), the
 *                 cache; every change ends here (game_commit_change() for a change that is
 *                 no engine action: events only, an abort);
 *   game_end()    the one place where a game ends (finished, timed out, aborted, expired):
 *                 the status and result the commit stores (ratings and tournaments hook in
 *                 here, in the same transaction);
 *   game_create() a new game from a setup: creation, rematch, replay (and next the
 *                 matchmaker and tournaments), counted against the creation limit
 *                 (game_limit_take); game_start() the clock and jobs of a game that starts.
 *
 * A new caller (a matchmaker, a tournament runner) fills a struct game_new and calls
 * game_create_begin() and game_create(); plays with game_play(); never writes a commit of
 * its own.
 */
#ifndef API_GAME_SERVICE_H
#define API_GAME_SERVICE_H

#include <stddef.h>

#include "game.h"
#include "games.h"
#include "nodiscard.h"
#include "store.h"
#include "store_games.h"

struct sockaddr;
struct api_async;
struct batch_req;
struct game_pending;

/* Who an action is played by. */
enum game_actor {
    GAME_BY_SEAT = 0, /* the seat's player (a request with its token) */
    GAME_BY_BOT,      /* the seat's computer player (bots.c) */
    GAME_BY_CLOCK,    /* the server, for the seat to move whose time ran out (clocks_run.c) */
    GAME_BY_SERVER    /* the server on its own: events only, no seat's action (deadline_near,
                         a lobby's expiry) */
};

/* How an attempt to change a game ended. */
enum game_outcome {
    GAME_COMMITTED = 0,       /* stored: the game (and the cache) hold the new state */
    GAME_REFUSED,             /* the engine refused the action: game_result.refusal says why */
    GAME_NOT_ACTIVE,          /* the game waits for open seats, was aborted (game_result.state),
                                 or (a resignation) is over already */
    GAME_TURN_TIMED_OUT,      /* the seat's time ran out: the server acts for it now (0011) */
    GAME_PRECONDITION_FAILED, /* the caller's precondition (game_play.precondition) refused */
    GAME_CONFLICT,            /* the game moved on meanwhile (another action won the version) */
    GAME_DUPLICATE,           /* a unique key exists: the answer's idempotency key, stored by a
                                 racing request, or (game_create) the rematch of the same game */
    GAME_SEEKS_TAKEN,         /* game_create: a seek to bind no longer waits (another pairing,
                                 a cancel, a lapse), or a tournament's table has its game
                                 already (another run paired it): nothing was written */
    GAME_LOAD_FAILED,         /* the game could not be read again: game_result.load says why */
    GAME_STORE_FAILED,        /* the database failed: game_result.store says why */
    GAME_RATE_LIMITED,        /* the creator's address made too many creations:
                                 game_result.retry_after (game_limit_take) */
    GAME_CORRUPT,             /* the state does not encode */
    GAME_NO_MEMORY,           /* out of memory */
    GAME_PENDING              /* game_play() with game_play.wait: the commit waits in a batch
                                 (game_result.pending); game_play_resume() once woken */
};

/* What an attempt produced; game_result_free() frees it. */
struct game_result {
    int version;                  /* GAME_COMMITTED: the version the commit made */
    char *answer;                 /* GAME_COMMITTED: the action's answer (JSON), malloc'd */
    size_t answer_len;            /* its bytes */
    enum cc_status refusal;       /* GAME_REFUSED: the engine's reason */
    unsigned figure;              /* GAME_REFUSED: the figure the action named (cc_action) */
    enum store_game_state state;  /* GAME_NOT_ACTIVE: waiting or aborted; playing: finished */
    enum store_status store;      /* GAME_STORE_FAILED: the store's answer */
    enum games_fail load;         /* GAME_LOAD_FAILED: why the game could not be read */
    int retry_after;              /* GAME_RATE_LIMITED: seconds until a creation may be tried */
    struct game_pending *pending; /* GAME_PENDING: the action whose commit waits */
};

/* An action to play. */
struct game_play {
    struct cc_action action; /* the action, its seat set */
    enum game_actor by;      /* who plays it */
    int place;               /* 1: answered with version, status, turn and events (a
                                placement or a resignation), 0: with the game, the drawn tile
                                and its placements (a draw) */
    /* The caller's check of the version the action would apply to (a request's If-Match),
     * or NULL: 0 to go on, else refused (GAME_PRECONDITION_FAILED, the caller's `ctx` says
     * how). Asked on a cached copy too, whose refusal only sends the service to the stored
     * game: keep no answer from a call but the last. */
    int (*precondition)(void *ctx, int version);
    /* Called with the answer (`version` the commit would make) just before the commit, or
     * NULL: returns what to remember with it in the same transaction (an idempotent
     * request's record, its strings borrowed until game_play returns), or NULL. */
    const struct store_idem *(*answered)(void *ctx, const char *answer, size_t len, int version);
    void *ctx; /* handed to precondition and answered */
    /* A request that can wait suspended, or NULL: a seat's move whose commit writes nothing
     * but the game (no clock, no job, no rated end, no answer remembered) is then queued
     * for the next batch of commits (batcher.h; the request is woken once it is done) and
     * game_play() answers GAME_PENDING: call game_play_resume() when woken. */
    struct api_async *wait;
};

/*
 * Plays `p` on the game *ag (from games_load/games_fetch; changed by it). A copy from the
 * cache that refuses the action, or loses the version, may only be old: the game is then
 * read again from the database (*ag replaced; NULL when that read failed, with
 * GAME_LOAD_FAILED) and the action tried once more there. Fills `out` (free it with
 * game_result_free, whatever the outcome).
 */
enum game_outcome game_play(struct api_game **ag, const struct game_play *p,
                            struct game_result *out) NODISCARD;

/*
 * The rest of game_play() whose commit waited (GAME_PENDING, out->pending), on the same *ag
 * and `p` (its `wait` unused): GAME_PENDING again while the batch is not done (`block` 1:
 * waits for it, the calling thread blocked), else as game_play() ends (a lost version on a
 * cached copy tried again on the stored game).
 */
enum game_outcome game_play_resume(struct api_game **ag, const struct game_play *p,
                                   struct game_result *out, int block) NODISCARD;

/* The outcome's name for logs ("committed", "conflict" ...). */
const char *game_outcome_name(enum game_outcome rc);

/* 1 when outcome `rc` of an action chosen on a state read says that the game is no longer
 * there (refused, not active, timed out, the version lost): for a job worker, another
 * attempt or commit moved it on, whose commit rewrote the job. */
int game_outcome_moved_on(enum game_outcome rc);

/* 1 when outcome `rc` is a failure of the server (read, store, memory): worth a retry. */
int game_outcome_failed(enum game_outcome rc);

/* Frees what game_play() wrote into `r` (and zeroes it); a commit still queued is dropped. */
void game_result_free(struct game_result *r);

/* Seat `seat`'s resignation in the game *agp read already, by game_play() (what *agp becomes
 * as it says), without the answer's details: its outcome. */
enum game_outcome game_play_resign(struct api_game **agp, int seat);

/* Resigns seat `seat` of game `game` if it still plays there (an entrant who left a
 * tournament): read from the database, then game_play_resign(). 0 (also when the game is gone,
 * over, or the seat resigned already), or -1 when the server failed (the game may still
 * run: its clock, if any, ends it). */
int game_resign_seat(const char *game, int seat);

/* How a game ends (game_end). */
enum game_ending {
    GAME_ENDS_PLAYED = 0, /* the engine finished it (completed, or a resignation) */
    GAME_ENDS_TIMEOUT,    /* a timed-out seat resigned for good (clocks) */
    GAME_ENDS_ABORTED,    /* called off by a seat (POST /abort) */
    GAME_ENDS_EXPIRED     /* a lobby nobody completed in time (retention) */
};

/*
 * The one place where a game ends: sets the status and result that commit `c` stores for
 * `ag` ending as `how` (an abort or an expiry: "aborted", which game_commit() then sets in
 * ag->row.state). Every ending passes here, so ratings and tournaments hook in once, in
 * the commit's transaction.
 */
void game_end(struct api_game *ag, struct store_commit *c, enum game_ending how);

/* The result stored and shown for a game ending as `how` in state `g` ("completed",
 * "resignation", "timeout"), NULL for an abort or an expiry (their status says it). */
const char *game_end_result(const struct cc_game *g, enum game_ending how);

/*
 * The one commit of a new state of `ag`: stores what `c` describes (store_game_commit: the
 * new snapshot, the action, its events, c->idem), guarded by the version `ag` was read at;
 * sets c->id and c->version from `ag` (and c->turn from ag->g unless the caller filled it);
 * the jobs' plan of the new state, and with a clock, the clock moved on (by the server's own
 * action for a timed-out seat when `by` is GAME_BY_CLOCK), its deadline and jobs. On success
 * moves ag->row on (version + 1, c->last_seq) and puts the new state into the cache with
 * `body` (its GET answer, `len` bytes, copied; may be NULL).
 *
 * GAME_COMMITTED, GAME_CONFLICT (the version moved on), GAME_DUPLICATE (c->idem's key was
 * stored by a racing request) or GAME_STORE_FAILED (*failure says why; set in every case).
 */
enum game_outcome game_commit(struct api_game *ag, struct store_commit *c, enum game_actor by,
                              const char *body, size_t len, enum store_status *failure) NODISCARD;

/*
 * game_commit() for a request that can wait suspended (`a`, or NULL): a seat's move whose
 * commit writes nothing but the game is queued for the next batch of commits instead
 * (*queued set, GAME_PENDING; batcher_result() says how it went, then game_commit_done());
 * anything else is committed now, as game_commit() does (*queued NULL).
 */
enum game_outcome game_commit_queue(struct api_game *ag, struct store_commit *c, enum game_actor by,
                                    struct api_async *a, struct batch_req **queued,
                                    const char *body, size_t len,
                                    enum store_status *failure) NODISCARD;

/* The end of a commit `c` of `ag` that the store answered `s`: the game's row (and the cache,
 * with the state's text `body`, or NULL) moved on when it went through; the outcome. */
enum game_outcome game_commit_done(struct api_game *ag, const struct store_commit *c,
                                   enum store_status s, const char *body, size_t len,
                                   enum store_status *failure) NODISCARD;

/* A change of a game that is no action of the engine: events only (deadline_near, a
 * lobby's expiry), or an action of the service's own (an abort). */
struct game_change {
    const char *events_json;       /* the new events (JSON array) */
    int nev;                       /* how many */
    int seat;                      /* the seat it concerns (stored with the action) */
    const char *kind;              /* the action's kind ("abort"), or NULL: events only */
    const char *action_json;       /* with kind: the action (JSON) */
    const struct store_idem *idem; /* the answer to remember, or NULL */
    const enum game_ending *ends;  /* how the game ends with it, or NULL: it goes on */
    const struct store_jobs *jobs; /* the jobs to write, or NULL: the state's plan */
};

/*
 * Commits change `ch` of game `ag` by `by` (game_commit, after the state encoded again and,
 * when it ends the game, game_end). Outcomes as game_commit()'s, and GAME_CORRUPT or
 * GAME_NO_MEMORY.
 */
enum game_outcome game_commit_change(struct api_game *ag, const struct game_change *ch,
                                     enum game_actor by, enum store_status *failure) NODISCARD;

/* A new game (game_create_begin, then game_create; game_new_free). */
struct game_new {
    /* Filled by the caller: */
    const struct cc_setup *setup;       /* the setup (its deck, when custom, is stored) */
    const struct cc_game *g;            /* the new game's state (a replay: played to its end) */
    const struct store_player *players; /* by seat (g->nplayers): names, token hashes ... */
    const char *start;                  /* start tile id asked for, or NULL */
    unsigned open_seats;                /* seats waiting for a join (bits): status "waiting",
                                           no jobs, the clock begun by the last join */
    struct store_clock clock;           /* its settings (kind 0: none); begun by begin */
    int hints_off;                      /* 1: "hints": false */
    int rated;                          /* 1: "rated": true (0025; routes_rated_setup checked
                                           the setup) */
    int chat_public;                    /* 1: "chat": "public" (0026) */
    int listed;                         /* 1: "listed": true, in the lobby's lists (0035) */
    int seed_chosen;                    /* 1: the creator chose the seed (a seed given, a
                                           replay's export), 0: drawn (a rematch) (0022) */
    const char *owner;                  /* the creating address (netaddr_key), whose games
                                           share the job workers (games.owner, 0020), or NULL */
    const char *events_json;            /* the creation's events (JSON array) */
    int last_seq;                       /* seq of the last of them */
    int version;                        /* the version it is created at (1; a replay: more) */
    const char *rematch_of;             /* the game it is the rematch of, or NULL */
    const char *webhook_url;            /* the creator's callback URL, or NULL */
    const char *webhook_secret;         /* its signing secret (with webhook_url) */
    const char *webhook_format;         /* its format (store_webhooks.h), NULL: "tilehall" */
    const char *replay_json;            /* a replay's actions (store_new_game), or NULL */
    const struct sockaddr *creator;     /* the creating client's address, counted against the
                                           creation limit (game_limit_take), or NULL: not
                                           counted here (counted already, or no client) */
    int weight;                         /* with creator: the creations it counts for (0: 1) */
    int nseeks;                         /* the matchmaker's: the seeks bound (store_new_game) */
    const char *seek_ids;               /* with nseeks: their ids ("{id,...}") */
    const char *seek_seats;             /* with nseeks: their seats ("{0,1,...}") */
    const char *tourney_id;             /* a tournament's game: its table (store_new_game) */
    int tourney_round;                  /* with tourney_id: the round (1 first) */
    int tourney_table;                  /* with tourney_id: the table (0 first) */
    /* Filled by game_create_begin: */
    char id[AUTH_UUID_LEN + 1]; /* the new game's id */
    uint8_t *snapshot;          /* the encoded state, malloc'd */
    size_t snapshot_len;        /* its bytes */
    char *options_json;         /* the options as stored, malloc'd */
    char *deck_json;            /* the custom deck as stored, malloc'd, or NULL */
    long long now_ms;           /* when the clock began */
    int retry_after;            /* GAME_RATE_LIMITED: seconds until it may be tried again */
};

/*
 * Prepares the new game `n` (the caller's fields filled in): counts it against the creation
 * limit of n->creator (if set), draws its id, encodes its state, options and deck, and begins
 * its clock (unless seats are open). GAME_COMMITTED (meaning: ready; the answer can be
 * written now, with n->id and n->clock), GAME_RATE_LIMITED (n->retry_after; nothing else
 * done), GAME_CORRUPT or GAME_NO_MEMORY (also when no id could be drawn). Free with
 * game_new_free either way.
 */
enum game_outcome game_create_begin(struct game_new *n) NODISCARD;

/*
 * Stores the new game `n` (game_create_begin'd) in one transaction with its jobs (a
 * computer player at seat 0, the clock's deadline) and `idem` (what to remember with the
 * creation's answer, or NULL). GAME_COMMITTED, GAME_DUPLICATE (a unique key exists: the
 * idempotency key, or the rematch of n->rematch_of), or GAME_STORE_FAILED; *failure is the
 * store's answer in every case.
 */
enum game_outcome game_create(struct game_new *n, const struct store_idem *idem,
                              enum store_status *failure) NODISCARD;

/*
 * Stores the new games ns[0..count) (each game_create_begin'd, none with an idempotent
 * answer) as game_create() each, all in one transaction: one commit for a whole tournament
 * round. All or none: GAME_COMMITTED, GAME_SEEKS_TAKEN (a binding was taken first: nothing
 * written), GAME_DUPLICATE, GAME_STORE_FAILED or GAME_NO_MEMORY; *failure is the store's
 * answer.
 */
enum game_outcome game_create_many(struct game_new *const *ns, int count,
                                   enum store_status *failure) NODISCARD;

/* What game_start() writes (the caller's). */
struct game_start {
    char *clock_json;       /* STORE_CLOCK_JSON_MAX bytes: the clock's stored text; NULL: none */
    char *deadline;         /* 32 bytes: its deadline (RFC 3339); NULL: none */
    struct store_jobs jobs; /* the jobs' plan */
};

/*
 * What a game starting as `g` (seats `players`, `clock` already begun at `now_ms`, kind 0:
 * none) stores: the clock's text and deadline (out->clock_json and out->deadline, set to NULL
 * when there are none), and returned, its jobs' plan (a computer player at seat 0, the
 * deadline) unless `plan` is 0 (then NULL). For game_create() and the last join of a lobby.
 */
const struct store_jobs *game_start(const struct cc_game *g, const struct store_player *players,
                                    const struct store_clock *clock, long long now_ms, int plan,
                                    struct game_start *out);

#define GAME_LIMIT_BYTES 4096 /* stored bytes a creation weighs in the creation limit */

/*
 * Sets up the creation limit: `per_minute` creations a minute per client address on
 * average (0: no limit), `burst` at once, a table of `slots` addresses (ratelimit_new).
 * Returns 0, or -1 when out of memory.
 */
int game_limit_init(int per_minute, int burst, int slots) NODISCARD;

/* Frees the creation limit's table (it is off afterwards). */
void game_limit_free(void);

/*
 * Counts a creation weighing `weight` creations (at least 1; at most the burst) for the
 * client at `addr` (NULL: not counted). Returns 0 when it may go on, else the whole seconds
 * (1 or more) until it may be tried again (answer 429 with that Retry-After). Thread-safe.
 */
int game_limit_take(const struct sockaddr *addr, int weight);

/* game_limit_take() of one creation that takes nothing: for a refusal before the work of a
 * creation whose weight is known only after it (a replay). */
int game_limit_peek(const struct sockaddr *addr);

/* The creations a game storing `stored_bytes` weighs: one per GAME_LIMIT_BYTES, at least 1. */
int game_limit_weight(size_t stored_bytes);

/* Frees what game_create_begin() wrote into `n`. */
void game_new_free(struct game_new *n);

#endif
