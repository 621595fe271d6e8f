/* store.h: PostgreSQL storage, the layer under the game service: what every family of the
 * store shares (its statuses, connections, migrations, the database epoch). Each family
 * has a header of its own: store_games.h (games, actions, events, idempotent answers),
 * store_people.h (people, their games and webhook), store_webhooks.h (webhooks and their
 * outbox), store_jobs.h (background jobs), store_live.h (the listening connection),
 * store_history.h (past versions and exports), store_retention.h (the sweep),
 * store_ratings.h (ratings). Implemented over store_db.c (the statements and the
 * connections); the files of api/store/ are the only ones that speak libpq. */
#ifndef API_STORE_H
#define API_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "auth.h"
#include "nodiscard.h"
#include "seal.h"

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

#define STORE_SERVER_KEY_LEN 32 /* bytes of a key of server_keys (0022) */

/*
 * The shared secret `name` of table server_keys (migrations/0022: "inbox_cursor") into
 * `out`: STORE_OK, STORE_NOT_FOUND when there is no such key (or not of
 * STORE_SERVER_KEY_LEN bytes), or the failure.
 */
enum store_status store_server_key(const char *name, uint8_t out[STORE_SERVER_KEY_LEN]) NODISCARD;

/* Games by status and webhook deliveries waiting, for /metrics. */
enum store_status store_counts(long *active, long *finished, long *deliveries) NODISCARD;

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

/*
 * The answer of a keyed request (Idempotency-Key) to keep with what it did, made by the
 * caller inside the store's transaction once the outcome is known (`outcome`: the store
 * function's, as it documents): *keep the answer to store (db_idem_put), or left NULL for
 * an outcome that is a refusal (a refused request binds no key). Returns 0, or -1 when the
 * answer cannot be made (the transaction is rolled back).
 */
typedef int (*store_keyed)(void *arg, int outcome, const struct store_idem **keep);

#endif
