/* store_games.h: games in PostgreSQL: their rows and seats, clocks, commits of actions
 * with their events, jobs and idempotent answers, joins (store.c, store_clock.c). */
#ifndef API_STORE_GAMES_H
#define API_STORE_GAMES_H

#include "game.h"
#include "ratings/glicko2.h"
#include "store.h"

/* A seat's rating in its game's pool (migrations/0023), as read with the game: what the
 * state shows beside a seat of a person or a computer player. */
struct store_seat_rating {
    int known;                    /* 1: read (a person or a computer player with a rated game
                                     in the pool: a row of ratings), else 0: none shown */
    struct glicko2_rating rating; /* as stored after its last rated game */
    int games;                    /* rated games in the pool */
    long long last_rated_ms;      /* its last rated game (ms since 1970), 0: none */
    long long read_ms;            /* the database's clock when read (ms since 1970) */
};

struct store_player {
    char name[STORE_NAME_MAX + 1];     /* UTF-8 */
    uint8_t token_hash[AUTH_HASH_LEN]; /* SHA-256 of the seat's token */
    char person_id[AUTH_UUID_LEN + 1]; /* the person bound to the seat (0008), or "" */
    int unclaimed;                     /* 1: a rematch seat whose token is not handed out (0009) */
    char bot[8];                       /* a computer player's level (0010), or "" */
    int think_ms;                      /* with bot: its time a move in ms */
    int open;                          /* 1 while the seat waits for its invite (0009) */
    uint8_t invite_sha[AUTH_HASH_LEN]; /* SHA-256 of its invite, while open (invite_hash) */
    struct store_seat_rating rating;   /* its rating in the game's pool when the game was
                                          read (store_game_load), or known 0 */
};

/* Where a game stands besides what its engine state says (games.status, 0009). */
enum store_game_state {
    STORE_PLAYING = 0, /* 'active' or 'finished': the engine's state tells which */
    STORE_WAITING,     /* 'waiting': some seat is open; readable, not playable */
    STORE_ABORTED      /* 'aborted': nobody wins, nothing more can be played */
};

/* The kinds of clock (0011). */
enum store_clock_kind {
    STORE_CLOCK_NONE = 0, /* no clock: nothing is timed */
    STORE_CLOCK_TURN,     /* turn_seconds for every turn (play-by-post) */
    STORE_CLOCK_BANK      /* a bank per seat plus an increment a turn (live play) */
};

#define STORE_CLOCK_JSON_MAX 512 /* bytes of a clock's stored JSON text (store_clock.c) */

/* A game's clock as created and where it stands (games.clock, 0011; api/clocks.c). */
struct store_clock {
    int kind;                          /* enum store_clock_kind */
    int turn_seconds;                  /* STORE_CLOCK_TURN: the time of a turn */
    int initial_seconds;               /* STORE_CLOCK_BANK: each seat's bank at the start */
    int increment_seconds;             /* STORE_CLOCK_BANK: added after each turn */
    int resign;                        /* 1: on_timeout "resign", else "autoplay" */
    long long turn_start_ms;           /* when the turn began (ms since 1970, server's clock) */
    long long deadline_ms;             /* when it must be finished (0: finished game) */
    int turn_seat;                     /* the seat whose turn began then */
    int turn_no;                       /* its cc_game.turn */
    long long bank_ms[CC_MAX_PLAYERS]; /* STORE_CLOCK_BANK: by seat, as of turn_start_ms */
    int timeouts[CC_MAX_PLAYERS];      /* timeouts in a row by seat */
    int timed_out;                     /* 1: this turn's timeout was counted (and told) */
    int near_sent;                     /* 1: this turn's deadline_near went out */
    int ended_by_timeout;              /* 1: a timeout's resignation ended the game */
};

/* Decodes the stored clock text (`len` bytes) into `out`. 0, or -1 when malformed. */
int store_clock_decode(const char *txt, size_t len, struct store_clock *out) NODISCARD;

/* Encodes `c` as its stored JSON into `buf` (STORE_CLOCK_JSON_MAX bytes); returns buf. */
const char *store_clock_encode(const struct store_clock *c, char *buf, size_t cap);

/* A game row with its players, as loaded. */
struct store_game {
    int version;                                 /* grows by one per accepted action */
    int last_seq;                                /* seq of the newest event */
    int nplayers;                                /* entries in players[] */
    struct store_player players[CC_MAX_PLAYERS]; /* by seat */
    int hints_off;                               /* 1: created with "hints": false (0010) */
    int seed_chosen;                             /* 1: the creator chose the seed (0022) */
    int chat_public;                             /* 1: created with "chat": "public" (0026) */
    int rated;                                   /* 1: a rated game (0025) */
    int listed;                                  /* 1: in the lobby's lists (0035) */
    enum store_game_state state;                 /* waiting, aborted, or as the engine says */
    struct store_clock clock;                    /* its clock (0011): kind 0 for none */
    size_t snapshot_len;                         /* bytes in snapshot */
    uint8_t snapshot[CC_SNAPSHOT_MAX];           /* cc_game_encode() of the state */
};

/* What a game's entry in a player's list shows of its state (migrations/0012), stored with
 * each commit: filled by game_commit() and at creation from the state; a zeroed one
 * (phase NULL) leaves what is stored. */
struct store_turn {
    int number;                 /* the turn, 1 .. */
    int seat;                   /* the seat to move, or -1 (finished) */
    const char *phase;          /* "draw", "place", "finished"; NULL: not known here */
    int nscores;                /* entries in scores */
    int scores[CC_MAX_PLAYERS]; /* by seat */
};

/* A new game, written in one transaction. */
struct store_new_game {
    const char *id;                     /* UUID */
    const char *ruleset;                /* name */
    const char *options_json;           /* JSON object */
    uint64_t seed;                      /* the seed */
    const char *start;                  /* start tile id asked for, or NULL */
    const char *deck_json;              /* deck asked for (JSON array), or NULL */
    const char *status;                 /* "waiting", "active" or "finished" */
    int last_seq;                       /* seq of the last event in events_json */
    const uint8_t *snapshot;            /* encoded state */
    size_t snapshot_len;                /* its bytes */
    int nplayers;                       /* entries in players */
    const struct store_player *players; /* by seat */
    const char *events_json;            /* JSON array of events, each with "seq" and "type" */
    const struct store_idem *idem;      /* the answer to remember, or NULL */
    const char *webhook_url;            /* the creator's callback URL, or NULL */
    const char *webhook_secret;         /* its signing secret (with webhook_url) */
    const char *webhook_format;         /* its format (store_webhooks.h), NULL: "tilehall" */
    const char *result;            /* "completed" ... when created finished, else NULL (0009) */
    const char *rematch_of;        /* the game this one is the rematch of, or NULL (0009) */
    int hints_off;                 /* 1: "hints": false (0010) */
    int seed_chosen;               /* 1: the creator chose the seed (0022) */
    int chat_public;               /* 1: "chat": "public", anyone reads the chat (0026) */
    int rated;                     /* 1: a rated game (0025) */
    int listed;                    /* 1: "listed": true, in the lobby's lists (0035) */
    const struct store_jobs *jobs; /* background jobs to write, or NULL: none */
    struct store_turn turn;        /* the turn and scores for the players' lists */
    const char *clock_json;        /* the clock (games.clock, 0011), or NULL: none */
    const char *deadline;          /* with clock_json: the deadline (RFC 3339), or NULL */
    const char *owner; /* the creating address (netaddr_key; games.owner, 0020), or NULL */
    /* A replay (store_export.c): the actions played after the creation, each with its
     * events, as a JSON array of {"version", "seat", "kind", "body", "events"}, and the
     * version they bring the game to; NULL (and 0) for a game created as usual. */
    const char *replay_json;
    int replay_version;
    /* The matchmaker's game (0027): the seeks it binds, as array literals of their ids
     * ("{id,...}") and seats ("{1,0,...}"), nseeks of them; the creation is STORE_CONFLICT
     * and writes nothing unless every one of them still waits (another pairing took it). */
    int nseeks;
    const char *seek_ids;
    const char *seek_seats;
    /* A tournament's game (0032): its table (tournament, round, table number), bound in the
     * creation's transaction; STORE_CONFLICT, nothing written, when the table has a game. */
    const char *tourney_id; /* or NULL */
    int tourney_round;
    int tourney_table;
};

struct ratings_game;   /* store_ratings.h */
struct ratings_change; /* store_ratings.h */

/* An accepted action, written in one transaction guarded by the version read. */
struct store_commit {
    const char *id;                  /* the game */
    int version;                     /* the version the action was applied to */
    const char *status;              /* "active", "finished" or "aborted" after it */
    int last_seq;                    /* seq of the last event in events_json */
    const uint8_t *snapshot;         /* the new state */
    size_t snapshot_len;             /* its bytes */
    int seat;                        /* who acted */
    const char *kind;                /* "draw" or "place" */
    const char *action_json;         /* the action as applied */
    const char *events_json;         /* JSON array of the new events */
    const struct store_idem *idem;   /* the answer to remember, or NULL */
    const char *result;              /* how it ended when finished ("completed" ...), else NULL */
    const struct store_jobs *jobs;   /* background jobs to write or remove, or NULL: none
                                        (game_commit fills it in) */
    struct store_turn turn;          /* the turn and scores after it, for the players' lists */
    const char *clock_json;          /* the clock after it (0011), or NULL: the game has none */
    const char *deadline;            /* with clock_json: the deadline (RFC 3339), or NULL */
    unsigned epoch;                  /* store_epoch() of the read of the state it moves on from
                                        (0: not checked): refused as STORE_UNAVAILABLE when the
                                        commit's connection reached another primary since */
    const struct ratings_game *rate; /* the end of a rated game (0025): its seats rated in the
                                        commit's transaction (ratings_apply_game; the seats'
                                        out_at filled there from the resignations stored), their
                                        changes added to game_finished; or NULL */
    struct ratings_change *rated;    /* with rate: each seat's change, by seat (written) */
    /* With rate, or NULL: called inside the transaction once the game was rated, with what
     * game_finished now carries (ratings_changes_json); returns the answer that adds it
     * (owned by the caller's `rated_ctx`, kept until the commit returns), remembered with
     * c->idem instead of its body; NULL fails the commit (out of memory). */
    const char *(*rated_answer)(void *rated_ctx, const char *ratings_json);
    void *rated_ctx; /* handed to rated_answer */
};

#define STORE_COMMIT_ROWS_MAX 64  /* commits in one store_game_commit_rows() at most */
#define STORE_JOBS_MAX        12  /* jobs one commit writes or removes at most */
#define STORE_JOBS_JSON_MAX   512 /* bytes of their text (store_jobs_json) */

/* One background job (0010) a commit writes or removes for its game, in its transaction. */
struct store_job_plan {
    const char *kind; /* the job's kind (static storage) */
    int remove;       /* 1: remove the game's job of this kind (the rest unused) */
    long long due_ms; /* else: written (replacing the one there, its lease and attempts
                         cleared) for the version the commit makes, due in due_ms from now */
    int lease_ms;     /* how long one claim holds it (0: 10000) */
};

/* The background jobs a commit writes or removes. */
struct store_jobs {
    int n;                                     /* entries in job (0: none) */
    struct store_job_plan job[STORE_JOBS_MAX]; /* the jobs, by kind (one entry a kind) */
};

/* Adds `p` to `jobs` (dropped, and logged, when full). */
void store_jobs_add(struct store_jobs *jobs, struct store_job_plan p);

/*
 * The text the database takes for `jobs` (STORE_JOBS_JSON: a JSON array of {"kind",
 * "due_ms": <ms from now> | null (remove), "lease_ms"}) in `buf` (`cap` bytes): buf, or NULL
 * when there are none (or they do not fit: logged).
 */
const char *store_jobs_json(const struct store_jobs *jobs, char *buf, size_t cap);

/* Writes a new game, its players, its events and the idempotent answer (if any). */
enum store_status store_game_create(const struct store_new_game *g) NODISCARD;

/* Writes the new games gs[0..n) as store_game_create() each, all in one transaction (a
 * tournament's round: one commit instead of one a game): all of them, or none (the first
 * failure's status: STORE_CONFLICT when a game's binding was taken). */
enum store_status store_games_create(const struct store_new_game *const *gs, int n) NODISCARD;

/*
 * Rematches (0009). store_game_create() with rematch_of set answers STORE_DUPLICATE (and
 * writes nothing) when that game has a rematch already; store_rematch_find() then gives
 * its id (into next, AUTH_UUID_LEN + 1 bytes): STORE_OK, STORE_NOT_FOUND when there is none.
 */
enum store_status store_rematch_find(const char *id, char *next) NODISCARD;

/*
 * Hands out the token of seat `seat` of game `id` once: sets its hash to `hash` if the
 * seat is still unclaimed (STORE_OK), else STORE_NOT_FOUND and nothing changes (the
 * token went to an earlier ask, or the seat never had one to hand out).
 */
enum store_status store_seat_claim(const char *id, int seat,
                                   const uint8_t hash[AUTH_HASH_LEN]) NODISCARD;

/* Loads game `id` (a valid UUID) into `out`: STORE_OK, STORE_NOT_FOUND ... */
enum store_status store_game_load(const char *id, struct store_game *out) NODISCARD;

/* The stored version of game `id` (a valid UUID) into *version: STORE_OK, STORE_NOT_FOUND ... */
enum store_status store_game_version(const char *id, int *version) NODISCARD;

/*
 * The stored versions of the games `ids[0..n)` (valid UUIDs; repeats allowed) in one
 * query, into versions[] (-1 for a game that does not exist). STORE_OK or the failure.
 */
enum store_status store_game_versions(const char *const *ids, size_t n, int *versions) NODISCARD;

/*
 * Makes the lease of a watch on game `id` (a valid UUID) run at least `lease_ms` from now:
 * while it runs, its commits notify STORE_EVENTS_CHANNEL (migrations/0004). *exists: 1
 * when there is such a game, else 0 (and nothing was written).
 */
enum store_status store_game_watch(const char *id, int lease_ms, int *exists) NODISCARD;

/* `fn` is called after each commit that wrote webhook deliveries (to wake the workers). */
void store_set_delivery_hook(void (*fn)(void));

/*
 * Stores an accepted action: the new snapshot (only if the stored version is still
 * c->version; else STORE_CONFLICT and nothing is written), the action, its events and
 * the idempotent answer (STORE_DUPLICATE if that key was taken meanwhile).
 */
enum store_status store_game_commit(const struct store_commit *c) NODISCARD;

/*
 * 1 when commit `c` may go in a batch of commits (store_game_commit_rows): an action with
 * no answer to remember, no game rated and no jobs to write or remove.
 */
int store_commit_batchable(const struct store_commit *c);

/* A batchable commit as store_game_commit_rows() takes it: a copy of what it stores. */
struct store_row;

/* The row of batchable commit `c` (copied: `c` and what it points at may go), malloc'd (one
 * free()); NULL when memory ran out. */
struct store_row *store_commit_row(const struct store_commit *c);

/*
 * The commits of n games at once (each game once), `rows` as store_commit_row() made them
 * and `epochs` as their store_commit.epoch, in one statement and one transaction
 * (store_batch.c): st[i] as store_game_commit() would have answered for each
 * (STORE_CONFLICT: its game moved on). A statement that fails (a failure that may be one
 * commit's) is run again for each alone.
 */
void store_game_commit_rows(const struct store_row *const *rows, const unsigned *epochs, size_t n,
                            enum store_status *st);

/*
 * The events of game `id` with seq > after (at most `limit`), as a JSON array text in
 * *json (malloc'd, the caller frees), and their number in *count. STORE_NOT_FOUND if
 * there is no such game.
 */
enum store_status store_events(const char *id, int after, int limit, char **json,
                               int *count) NODISCARD;

/*
 * Looks up the answer remembered (less than 24 hours ago) for `scope` and `key_hash`,
 * opening its body with `seal_key`. On STORE_OK fills out's request_hash, status,
 * location, etag and body (malloc'd strings the caller frees with store_idem_free); when
 * the row does not open under `seal_key` (the key's caller token differs), out->locked is
 * 1 and body NULL; a row from before 0011 has out->unsealed 1. STORE_NOT_FOUND when there
 * is none.
 */
enum store_status store_idem_get(const char *scope, const uint8_t key_hash[SEAL_HASH_LEN],
                                 const uint8_t seal_key[SEAL_KEY_LEN],
                                 struct store_idem *out) NODISCARD;

/* Frees the strings store_idem_get() filled in. */
void store_idem_free(struct store_idem *idem);

/* A join: an open seat of a waiting game taken (POST /v1/games/{id}/join). */
struct store_join {
    const char *id;                /* the game */
    int version;                   /* the version the join was decided on */
    int seat;                      /* the open seat taken */
    const uint8_t *invite_hash;    /* SHA-256 of its invite (AUTH_HASH_LEN bytes) */
    const char *name;              /* the seat's name from now on */
    const uint8_t *token_hash;     /* SHA-256 of its new seat token (AUTH_HASH_LEN) */
    const char *person_id;         /* the person it is bound to, or NULL */
    int started;                   /* 1 when it is the last open seat: 'active' after */
    int last_seq;                  /* seq of the last event in events_json */
    const char *action_json;       /* the join as the action log keeps it */
    const char *events_json;       /* JSON array of the new events */
    const struct store_idem *idem; /* the answer to remember, or NULL */
    const struct store_jobs *jobs; /* with started: the background jobs, or NULL: none */
    const char *clock_json;        /* with started: the clock begun now (0014), or NULL: none */
    const char *deadline;          /* with clock_json: its deadline (RFC 3339), or NULL */
    int already_seated;            /* out: 1 when person_id holds a seat of the game */
};

/*
 * Stores a join in one transaction: the game's row (version + 1, 'active' when j->started,
 * else still 'waiting'; only while it is still at j->version and 'waiting'), the seat
 * (only while its invite is still j->invite_hash), the action, the events, their webhook
 * deliveries and notification, j->idem. STORE_OK; STORE_CONFLICT when the game moved on
 * (load it again and decide again); STORE_NOT_FOUND when the invite was used meanwhile;
 * STORE_DUPLICATE when j->idem's key was stored by a racing request, or with
 * j->already_seated set when the person holds another seat of the game (nothing written).
 */
enum store_status store_game_join(struct store_join *j) NODISCARD;

/*
 * Calls fn(arg, seq, type, payload, len) for each event of game `id` with seq > after
 * (oldest first, at most `limit`), counting them in *count; `payload` is the event's JSON
 * text (`len` bytes, NUL-terminated), valid during the call. A nonzero return of fn stops
 * (STORE_ERROR). A game without events and no game at all both give no call.
 */
enum store_status store_events_each(const char *id, int after, int limit,
                                    int (*fn)(void *arg, int seq, const char *type,
                                              const char *payload, size_t len),
                                    void *arg, int *count) NODISCARD;

/* A page of a game's events (store_events_page). */
struct store_events_page {
    char *json;        /* JSON array of the events, oldest first (malloc'd, the caller frees) */
    int count;         /* events in it */
    int last_seq;      /* seq of its last event (`after` when empty) */
    int game_last_seq; /* seq of the game's newest event: more follow when it is greater */
    int finished;      /* 1 when the game is finished (no event will follow its last) */
    char status[16];   /* the game's status as stored ("active", "finished" ...) */
};

/*
 * store_events() with what a client pages with: the game's newest seq and whether it is
 * finished, read in the same statement as the page. STORE_NOT_FOUND if there is no such
 * game.
 */
enum store_status store_events_page(const char *id, int after, int limit,
                                    struct store_events_page *out) NODISCARD;

#endif
