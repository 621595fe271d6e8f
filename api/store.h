/* store.h: PostgreSQL storage of games, players, actions, events and idempotency keys,
 * webhooks and their outbox, people (players across games), and the listening connection
 * of live updates. Implemented by store.c (games), store_webhook.c, store_player.c,
 * store_inbox.c (a person's games and webhook), store_live.c, over store_db.c (the statements and
 * the connections); these are the only files that speak libpq. */
#ifndef API_STORE_H
#define API_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "auth.h"
#include "game.h"
#include "seal.h"
#include "nodiscard.h"

#define STORE_NAME_MAX       160               /* bytes of a player name (40 characters of UTF-8) */
#define STORE_URL_MAX        2048              /* bytes of a webhook URL */
#define STORE_EVENTS_CHANNEL "tilehall_events" /* NOTIFY channel: "<game id>:<last seq>" */
#define STORE_JOBS_CHANNEL   "tilehall_jobs"   /* NOTIFY channel: a commit wrote a job (0010) */

enum store_status {
    STORE_OK = 0,
    STORE_NOT_FOUND,   /* no such row */
    STORE_CONFLICT,    /* the version moved on (another action won) */
    STORE_DUPLICATE,   /* a unique key exists already (idempotency key raced) */
    STORE_UNAVAILABLE, /* no database connection now: answer 503, retry later */
    STORE_ERROR        /* anything else (logged) */
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
    enum store_game_state state;                 /* waiting, aborted, or as the engine says */
    struct store_clock clock;                    /* its clock (0011): kind 0 for none */
    size_t snapshot_len;                         /* bytes in snapshot */
    uint8_t snapshot[CC_SNAPSHOT_MAX];           /* cc_game_encode() of the state */
};

/* The first answer to a request with an Idempotency-Key. */
struct store_idem {
    const char *scope;                   /* "create", "<game id>/<seat>" ... (idem.h) */
    uint8_t key_hash[SEAL_HASH_LEN];     /* seal_lookup() of scope and key: the row's name */
    uint8_t seal_key[SEAL_KEY_LEN];      /* seal_derive(): seals and opens the body (0011) */
    uint8_t request_hash[AUTH_HASH_LEN]; /* SHA-256 of method, path and canonical body */
    int status;                          /* HTTP status of the first answer */
    const char *location;                /* its Location, or NULL */
    const char *etag;                    /* its ETag, or NULL */
    const char *body;                    /* its body, whole (tokens too): stored sealed */
    int locked;   /* got: the row is there but does not open under seal_key (body NULL) */
    int unsealed; /* got: a row from before 0011, its body without tokens */
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
    const char *result;            /* "completed" ... when created finished, else NULL (0009) */
    const char *rematch_of;        /* the game this one is the rematch of, or NULL (0009) */
    int hints_off;                 /* 1: "hints": false (0010) */
    int seed_chosen;               /* 1: the creator chose the seed (0022) */
    int chat_public;               /* 1: "chat": "public", anyone reads the chat (0026) */
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
};

/* An accepted action, written in one transaction guarded by the version read. */
struct store_commit {
    const char *id;                /* the game */
    int version;                   /* the version the action was applied to */
    const char *status;            /* "active", "finished" or "aborted" after it */
    int last_seq;                  /* seq of the last event in events_json */
    const uint8_t *snapshot;       /* the new state */
    size_t snapshot_len;           /* its bytes */
    int seat;                      /* who acted */
    const char *kind;              /* "draw" or "place" */
    const char *action_json;       /* the action as applied */
    const char *events_json;       /* JSON array of the new events */
    const struct store_idem *idem; /* the answer to remember, or NULL */
    const char *result;            /* how it ended when finished ("completed" ...), else NULL */
    const struct store_jobs *jobs; /* background jobs to write or remove, or NULL: none
                                      (game_commit fills it in) */
    struct store_turn turn;        /* the turn and scores after it, for the players' lists */
    const char *clock_json;        /* the clock after it (0011), or NULL: the game has none */
    const char *deadline;          /* with clock_json: the deadline (RFC 3339), or NULL */
    unsigned epoch;                /* store_epoch() of the read of the state it moves on from
                                      (0: not checked): refused as STORE_UNAVAILABLE when the
                                      commit's connection reached another primary since */
};

#define STORE_JOBS_MAX      12  /* jobs one commit writes or removes at most */
#define STORE_JOBS_JSON_MAX 512 /* bytes of their text (store_jobs_json) */

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

/* Remembers `conninfo` (copied) for the connections to come. Returns 0 or -1. */
int store_init(const char *conninfo) NODISCARD;

/* Closes the calling thread's connection and forgets the connection string. */
void store_shutdown(void);

/* One SQL migration file. */
struct store_migration {
    int version;      /* the number its file name starts with */
    const char *name; /* the file name */
    const char *sql;  /* its text */
};

/*
 * Applies the migrations of `list` (ascending versions) that schema_migrations does not
 * record yet, each in its own transaction, holding a PostgreSQL advisory lock so that
 * servers starting together apply each once. Returns STORE_OK, or the failure (logged).
 */
enum store_status store_migrate(const struct store_migration *list, size_t n) NODISCARD;

/* STORE_OK when the database answers a query now. */
enum store_status store_ping(void) NODISCARD;

/* Writes a new game, its players, its events and the idempotent answer (if any). */
enum store_status store_game_create(const struct store_new_game *g) NODISCARD;

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

/* A person: one identity across games (POST /v1/players; the table people, 0007). Not a
 * seat: struct store_player is a game's seat. */
struct store_person {
    char id[AUTH_UUID_LEN + 1];        /* UUID, lower-case */
    char name[STORE_NAME_MAX + 1];     /* UTF-8 */
    uint8_t token_hash[AUTH_HASH_LEN]; /* SHA-256 of the person's token */
    int suspended;                     /* 1: suspended by the operator (0026; by_token only) */
};

/*
 * Writes a new person (p->id, name, token_hash) and the idempotent answer `idem` (NULL
 * for none) in one transaction: STORE_OK, STORE_DUPLICATE when idem's key was stored by a
 * racing request (nothing written) ...
 */
enum store_status store_person_create(const struct store_person *p,
                                      const struct store_idem *idem) NODISCARD;

/* The person whose token hashes to `hash` into `out`: STORE_OK, STORE_NOT_FOUND ... */
enum store_status store_person_by_token(const uint8_t hash[AUTH_HASH_LEN],
                                        struct store_person *out) NODISCARD;

/*
 * Replaces the token of the person whose token hashes to `old_hash` now by `new_hash`,
 * filling out's id and name: STORE_OK, or STORE_NOT_FOUND when no token hashes to
 * `old_hash` (any more: of two replacements racing with one token, one wins and the
 * other finds nothing, and nothing is changed for it).
 */
enum store_status store_person_token_replace(const uint8_t old_hash[AUTH_HASH_LEN],
                                             const uint8_t new_hash[AUTH_HASH_LEN],
                                             struct store_person *out) NODISCARD;

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

/*
 * The webhooks of a game (migrations/0006_webhook_owners.sql): at most one per owner, the
 * creator's (given at creation, store_new_game.webhook_url) and one per seat (set with the
 * seat's token). Every event of the game is delivered to each of them. `seat` below is a
 * seat (0 ..): these functions never touch or read the creator's webhook.
 */

/*
 * Sets (or replaces) the webhook of seat `seat` of game `id` (which exists): its URL and
 * signing secret, with the idempotent answer `idem` (NULL for none) in the same
 * transaction. That webhook's deliveries still due go to the new URL.
 */
enum store_status store_webhook_set(const char *id, int seat, const char *url, const char *secret,
                                    const struct store_idem *idem) NODISCARD;

/* Removes the webhook of seat `seat` of game `id` and its deliveries; *deleted says whether
 * there was one. */
enum store_status store_webhook_delete(const char *id, int seat, int *deleted) NODISCARD;

/* A webhook and how its deliveries stand (never its secret). */
struct store_webhook_state {
    char url[STORE_URL_MAX + 1]; /* the callback URL */
    char since[32];              /* when it was set (RFC 3339, UTC) */
    long delivered;              /* events answered 2xx */
    long pending;                /* events still to deliver (due or waiting to be retried) */
    long gave_up;                /* events given up after the last attempt */
    int delivered_up_to;         /* the seq up to which every event is done, or -1 */
    long failed_attempts;        /* attempts that got no 2xx answer */
    int has_error;               /* 1 when some attempt failed: the last_error fields hold */
    char last_error[256];        /* what the last failed attempt got */
    int last_error_seq;          /* the event it was delivering */
    int last_error_status;       /* its HTTP status, or -1 when there was no answer */
    char last_error_at[32];      /* when (RFC 3339, UTC) */
};

/* The webhook of seat `seat` of game `id` into `out`: STORE_OK, STORE_NOT_FOUND when the
 * seat has none ... */
enum store_status store_webhook_get(const char *id, int seat,
                                    struct store_webhook_state *out) NODISCARD;

/* A claimed delivery: one event to POST to one webhook. Strings are malloc'd
 * (store_delivery_free). */
struct store_delivery {
    char hook[24];                /* the webhook's id (webhooks.id, decimal) */
    char game[AUTH_UUID_LEN + 1]; /* the game's id */
    int seq;                      /* the event's seq */
    int attempt;                  /* 1 for the first attempt */
    char *url;                    /* where to */
    char *secret;                 /* the signing key */
    char *payload;                /* the event (JSON) */
    char *host;                   /* the URL's host, lower-case (webhooks.host): a key */
};

/*
 * Claims up to `max` due deliveries (each the oldest undelivered event of its webhook; rows
 * other servers hold are skipped), leasing them for `lease_ms` (they are due again then
 * unless store_webhook_done() or store_webhook_defer() says otherwise). None whose host is
 * one of the `nskip` in `skip`, and at most `per_host` of one host. Fills out[0..*n).
 */
enum store_status store_webhook_claim(int lease_ms, const char *const *skip, int nskip,
                                      int per_host, struct store_delivery *out, int max,
                                      int *n) NODISCARD;

/*
 * Puts a claimed delivery (webhook `hook`, event `seq`) back unattempted: its attempt is
 * not counted, and it is due again in `delay_ms` (for any server).
 */
enum store_status store_webhook_defer(const char *hook, int seq, int delay_ms) NODISCARD;

/*
 * Reschedules every waiting delivery to `host` to `delay_ms` from now at the earliest (a
 * circuit breaker opened). Rows in flight keep their lease, only longer.
 */
enum store_status store_webhook_host_defer(const char *host, int delay_ms) NODISCARD;

/* Frees the strings of a delivery; NULL is fine. */
void store_delivery_free(struct store_delivery *d);

/*
 * Records an attempt of delivery (webhook `hook`, event `seq`): `ok` (answered 2xx), else
 * its HTTP status (0: no answer) and `error`, due again in `retry_ms`, or given up for good
 * (`gave_up`).
 */
enum store_status store_webhook_done(const char *hook, int seq, int ok, int http_status,
                                     const char *error, int retry_ms, int gave_up) NODISCARD;

/*
 * A person's games (GET /v1/players/me/games, migrations/0012): the seats bound to the
 * person, in the list's order (its turn first, then the nearest deadline, then the most
 * recently changed, then the game's id), paged by the keys of the last entry shown.
 */
struct store_inbox_key {
    int rank;                     /* 0: the person's turn, 1: not */
    long long deadline;           /* players.inbox_deadline */
    long long recency;            /* players.inbox_recency */
    char game[AUTH_UUID_LEN + 1]; /* the game's id */
};

/* What to list. */
struct store_inbox_query {
    const char *status;                  /* only games of this stored status, or NULL */
    int my_turn;                         /* 1: only its turn, 0: only not, -1: either */
    const struct store_inbox_key *after; /* list after this entry, or NULL from the start */
    int limit;                           /* entries at most (1 ..) */
};

/* One seat of a listed game. */
struct store_inbox_seat {
    int seat;                      /* 0 .. */
    char name[STORE_NAME_MAX + 1]; /* UTF-8 */
    int has_score;                 /* 0: not known (a game stored before 0012, unmoved) */
    int score;                     /* with has_score */
};

/* One entry of the list: a game of the person. */
struct store_inbox_entry {
    struct store_inbox_key key;                    /* its place in the order */
    char ruleset[24];                              /* the ruleset's name */
    char status[16];                               /* as stored */
    int version;                                   /* the game's version */
    int seat;                                      /* the person's seat */
    int turn_number;                               /* -1: not known (see has_score) */
    int turn_seat;                                 /* the seat to move, or -1 */
    char turn_phase[12];                           /* "draw", "place", "finished", "" */
    int nseats;                                    /* entries in seats */
    struct store_inbox_seat seats[CC_MAX_PLAYERS]; /* by seat */
};

/* A page of the list. */
struct store_inbox_page {
    long my_turn_count;                /* the person's games where it is its turn */
    int more;                          /* 1 when entries follow this page */
    int n;                             /* entries in entries */
    struct store_inbox_entry *entries; /* malloc'd (store_inbox_free), in order */
};

/*
 * The page `q` asks for of the games of the person whose token hash is `token_hash`, found
 * in the same statement (one round trip), into `who` (as store_person_by_token gives it:
 * the caller compares who->token_hash in constant time) and `out`: STORE_OK (free the page
 * with store_inbox_free), STORE_NOT_FOUND when the hash is no person's, or the failure.
 */
enum store_status store_inbox_page(const uint8_t token_hash[AUTH_HASH_LEN],
                                   const struct store_inbox_query *q, struct store_person *who,
                                   struct store_inbox_page *out) NODISCARD;

#define STORE_SERVER_KEY_LEN 32 /* bytes of a key of server_keys (0022) */

/*
 * The shared secret `name` of table server_keys (migrations/0022: "inbox_cursor") into
 * `out`: STORE_OK, STORE_NOT_FOUND when there is no such key (or not of
 * STORE_SERVER_KEY_LEN bytes), or the failure.
 */
enum store_status store_server_key(const char *name, uint8_t out[STORE_SERVER_KEY_LEN]) NODISCARD;

/* Frees a page's entries; a zeroed page is fine. */
void store_inbox_free(struct store_inbox_page *p);
void store_inbox_free(struct store_inbox_page *p);

/*
 * A person's webhook (POST|GET|DELETE /v1/players/me/webhook, 0012): the events of every
 * game in which the person holds a seat (one webhooks row per such game, owner
 * "person:<id>", sharing the game webhooks' outbox and delivery). Sets or replaces it
 * (URL and secret) with the idempotent answer `idem` (NULL for none) in one transaction.
 */
enum store_status store_person_hook_set(const char *person, const char *url, const char *secret,
                                        const struct store_idem *idem) NODISCARD;

/* Removes person `person`'s webhook and its deliveries; *deleted says whether there was one. */
enum store_status store_person_hook_delete(const char *person, int *deleted) NODISCARD;

/* A person's webhook over its games: as struct store_webhook_state, summed. */
struct store_person_hook_state {
    struct store_webhook_state w;       /* delivered_up_to unused (-1) */
    long games;                         /* games it covers */
    char error_game[AUTH_UUID_LEN + 1]; /* the game of w's last error, or "" */
};

/* Person `person`'s webhook into `out`: STORE_OK, STORE_NOT_FOUND when it has none ... */
enum store_status store_person_hook_get(const char *person,
                                        struct store_person_hook_state *out) NODISCARD;

/* Games by status and webhook deliveries waiting, for /metrics. */
enum store_status store_counts(long *active, long *finished, long *deliveries) NODISCARD;

/* A claimed background job (0010, store_jobs.c). */
struct store_job {
    char game[AUTH_UUID_LEN + 1]; /* the game's id */
    char kind[24];                /* its kind (jobs.h) */
    int version;                  /* the game's version it was written for */
    int attempts;                 /* claims so far, this one included */
};

/* `fn` is called after each commit that wrote a job (to wake the job workers). */
void store_set_job_hook(void (*fn)(void));

/*
 * Claims up to `max` due jobs of the `nkinds` kinds in `kinds` (rows other servers hold are
 * skipped), each leased for its lease_ms: it is due again when the lease runs out unless a
 * commit rewrites or removes it, or store_job_drop() or store_job_retry() is called.
 * Fair shares (0020): jobs whose games one address created (games.owner) are passed over
 * while `per_owner` of them of these kinds run (on any server), and the owner served
 * longest ago goes first. Fills out[0..*n).
 */
enum store_status store_job_claim(const char *const *kinds, int nkinds, int per_owner,
                                  struct store_job *out, int max, int *n) NODISCARD;

/* Removes job `j` if it is still the one claimed (same version): work with nothing to do. */
enum store_status store_job_drop(const struct store_job *j) NODISCARD;

/* Makes job `j`, if still the one claimed, due again in `delay_ms`, its lease released. */
enum store_status store_job_retry(const struct store_job *j, int delay_ms) NODISCARD;

/* A connection that listens for STORE_EVENTS_CHANNEL notifications (not the thread's). */
struct store_listener;

/* Connects and LISTENs; NULL when the database is unreachable (logged). */
struct store_listener *store_listener_new(void);

/* The socket to poll for input. */
int store_listener_fd(const struct store_listener *l);

/*
 * Reads what arrived and calls fn(payload, arg) for each notification. Returns 0, or -1
 * when the connection is lost (free it and connect again).
 */
int store_listener_drain(struct store_listener *l, void (*fn)(const char *payload, void *arg),
                         void *arg) NODISCARD;

/* Checks the connection with a query (notifications that arrive meanwhile stay queued
 * for the next drain). Returns 0, or -1 when it is lost. */
int store_listener_ping(struct store_listener *l) NODISCARD;

/* A listener of STORE_JOBS_CHANNEL (the job workers'), else as store_listener_new(). */
struct store_listener *store_listener_new_jobs(void);

/* Closes the listener; NULL is fine. */
void store_listener_free(struct store_listener *l);

/* Marks every thread's connection stale (each is replaced before its next use) and lets
 * threads waiting to reconnect try at once: for signs that the database restarted, such
 * as the listener's connection lost or back. Thread-safe. */
void store_conns_stale(void);

/*
 * The database epoch of what the calling thread read last: the timeline of the primary its
 * connection reached (a promoted standby starts a new one), or 0 without a connection.
 * What was read from one primary may be gone after a failover (a commit the old primary
 * showed to readers while it waited for its standby, which never got it): a state read
 * in an older epoch must not be trusted (games.c) nor committed on (store_commit.epoch).
 */
unsigned store_epoch(void);

/* The newest epoch (timeline) any connection of this process reached. */
unsigned store_epoch_newest(void);

/* What replaying a game to a past version needs (store_history.c). Strings malloc'd. */
struct store_history {
    char *setup;   /* the game's setup as a POST /v1/games body (seats named "Seat 1" ...) */
    int version;   /* the version stored now */
    char *actions; /* JSON array of the stored actions (their bodies) producing versions
                      2 .. the version asked, oldest first */
};

/*
 * The setup of game `id` (a valid UUID) and its actions up to version `upto` into `out`
 * (store_history_free, also after a failure): STORE_OK, STORE_NOT_FOUND ...
 */
enum store_status store_game_history(const char *id, int upto, struct store_history *out) NODISCARD;

/* Frees the strings of `h`. */
void store_history_free(struct store_history *h);

/* What an export of a game is made of (store_export.c). Strings malloc'd. */
struct store_export {
    char *setup;     /* the setup as a POST /v1/games body (seats: names, computer players) */
    char status[16]; /* the game's status as stored ("finished" ...) */
    char result[16]; /* how it ended ("completed", "resignation", "timeout"), or "" */
    char *actions;   /* JSON array of every stored action (their bodies), oldest first */
    char *chat;      /* JSON array of the chat's messages, oldest first (0026) */
};

/*
 * The export of game `id` (a valid UUID) into `out` (store_export_free, also after a
 * failure): STORE_OK, STORE_NOT_FOUND ...
 */
enum store_status store_game_export(const char *id, struct store_export *out) NODISCARD;

/* Frees the strings of `x`. */
void store_export_free(struct store_export *x);

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

/* Retention (0017, store_retention.c, api/retention.c). */
#define STORE_SWEEP_GAME "00000000-0000-0000-0000-000000000000" /* the sweep job's game id */

/*
 * Deletes up to `batch` games that ended (finished or aborted) more than `days` days ago,
 * oldest first, with every row of theirs (seats, actions, events, webhooks and their
 * deliveries, jobs), in one transaction that skips games another sweep holds (FOR UPDATE
 * SKIP LOCKED): two sweeps never delete the same game. *deleted gets the games deleted.
 */
enum store_status store_retention_delete(int days, int batch, long *deleted) NODISCARD;

/*
 * The ids of up to `max` games still waiting for open seats that were created more than
 * `hours` hours ago, oldest first, into ids[0..*n) (each AUTH_UUID_LEN + 1 bytes).
 */
enum store_status store_lobbies_expired(int hours, int max, char (*ids)[AUTH_UUID_LEN + 1],
                                        int *n) NODISCARD;

/* Deletes up to `batch` idempotent answers older than 24 hours; *purged gets how many. */
enum store_status store_idem_purge(int batch, long *purged) NODISCARD;

/* Makes the sweep's job (STORE_SWEEP_GAME, kind "retention") due in `due_ms`, writing it
 * if it is missing, its lease (`lease_ms` a claim) released. */
enum store_status store_sweep_plan(int due_ms, int lease_ms) NODISCARD;

#endif
