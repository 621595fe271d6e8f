/* store.c: the only file that speaks libpq. One connection per thread, prepared statements. */
#include "store.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <libpq-fe.h>

#include "log.h"
#include "metrics.h"
#include "req.h"

#define MIGRATION_LOCK_KEY "7596138466117266540" /* pg_advisory_lock key of migrations */
#define RECONNECT_DELAY_MS 1000                  /* between attempts of one thread */
#define MAX_PARAMS         16                    /* parameters of one statement */

/* The statements every connection prepares. */
enum stmt {
    ST_PING,
    ST_GAME_LOAD,
    ST_GAME_INSERT,
    ST_PLAYER_INSERT,
    ST_EVENTS_INSERT,
    ST_GAME_UPDATE,
    ST_ACTION_INSERT,
    ST_GAME_COMMIT,
    ST_EVENTS_LIST,
    ST_IDEM_GET,
    ST_IDEM_PUT,
    ST_GAME_VERSION,
    ST_GAME_VERSIONS,
    ST_AFTER_COMMIT,
    ST_EVENTS_EACH,
    ST_WEBHOOK_PUT,
    ST_WEBHOOK_DELETE,
    ST_WEBHOOK_STATE,
    ST_WEBHOOK_CLAIM,
    ST_WEBHOOK_DONE,
    ST_COUNTS,
    ST_GAMES_WATCH,
    ST_COUNT
};

static const char *const stmt_sql[ST_COUNT] = {
    [ST_PING] = "SELECT 1",
    /* One row per seat; the snapshot only in the first (results in binary). */
    [ST_GAME_LOAD] = "SELECT g.version, g.last_seq, p.seat, p.name, p.token_hash, "
                     "CASE WHEN p.seat = 0 THEN g.snapshot END FROM games g "
                     "JOIN players p ON p.game_id = g.id WHERE g.id = $1::uuid ORDER BY p.seat",
    [ST_GAME_INSERT] = "INSERT INTO games (id, ruleset, options, seed, start_tile, custom_deck, "
                       "version, status, last_seq, snapshot) VALUES ($1::uuid, $2, $3::jsonb, "
                       "$4::numeric, $5, $6::jsonb, 1, $7, $8::integer, $9::bytea)",
    [ST_PLAYER_INSERT] = "INSERT INTO players (game_id, seat, name, token_hash) "
                         "VALUES ($1::uuid, $2::integer, $3, $4::bytea)",
    [ST_EVENTS_INSERT] = "INSERT INTO events (game_id, seq, version, type, payload) "
                         "SELECT $1::uuid, (e->>'seq')::integer, $2::integer, e->>'type', e "
                         "FROM json_array_elements($3::json) AS e",
    [ST_GAME_UPDATE] = "UPDATE games SET version = $2::integer + 1, status = $3, "
                       "last_seq = $4::integer, snapshot = $5::bytea, updated_at = now() "
                       "WHERE id = $1::uuid AND version = $2::integer",
    [ST_ACTION_INSERT] = "INSERT INTO actions (game_id, version, seat, kind, body) "
                         "VALUES ($1::uuid, $2::integer, $3::integer, $4, $5::jsonb)",
    /* A whole action in one statement (one round trip, its own transaction): nothing is
     * written unless the version is still the one read; answers 1 row, or 0 (moved on). */
    [ST_GAME_COMMIT] = "WITH g AS (UPDATE games SET version = $2::integer + 1, status = $3, "
                       "last_seq = $4::integer, snapshot = $5::bytea, updated_at = now() "
                       "WHERE id = $1::uuid AND version = $2::integer "
                       "RETURNING id, watched_until), "
                       "a AS (INSERT INTO actions (game_id, version, seat, kind, body) "
                       "SELECT id, $2::integer + 1, $6::integer, $7, $8::jsonb FROM g), "
                       "e AS (INSERT INTO events (game_id, seq, version, type, payload) "
                       "SELECT g.id, (x->>'seq')::integer, $2::integer + 1, x->>'type', x "
                       "FROM g, json_array_elements($9::json) AS x), "
                       /* A delivery per event when the game has a webhook (0003). */
                       "w AS (INSERT INTO webhook_deliveries (game_id, seq) "
                       "SELECT g.id, (x->>'seq')::integer FROM g JOIN webhooks h ON h.game_id = "
                       "g.id, json_array_elements($9::json) AS x RETURNING 1) "
                       /* The deliveries written (the caller kicks its workers), and, sent at
                        * commit only, the notification that wakes the streams and long polls
                        * of every server, while one of them watches the game (0004). */
                       "SELECT (SELECT count(*) FROM w), (SELECT pg_notify('" STORE_EVENTS_CHANNEL
                       "', g.id::text || ':' || $4::integer) WHERE g.watched_until > now()) "
                       "FROM g",
    /* The game's events after $2 (no row: no such game; one row with NULL: none). */
    [ST_EVENTS_LIST] = "SELECT e.payload FROM games g LEFT JOIN LATERAL (SELECT seq, payload "
                       "FROM events WHERE game_id = g.id AND seq > $2::integer ORDER BY seq "
                       "LIMIT $3::integer) e ON true WHERE g.id = $1::uuid ORDER BY e.seq",
    [ST_IDEM_GET] = "SELECT request_hash, status, location, etag, body FROM idempotency "
                    "WHERE scope = $1 AND key = $2 AND created_at > now() - interval '24 hours'",
    [ST_IDEM_PUT] =
        "INSERT INTO idempotency (scope, key, request_hash, status, location, etag, body) "
        "VALUES ($1, $2, $3::bytea, $4::integer, $5, $6, $7) ON CONFLICT (scope, key) "
        "DO UPDATE SET request_hash = EXCLUDED.request_hash, status = EXCLUDED.status, "
        "location = EXCLUDED.location, etag = EXCLUDED.etag, body = EXCLUDED.body, "
        "created_at = now() "
        "WHERE idempotency.created_at <= now() - interval '24 hours'",
    [ST_GAME_VERSION] = "SELECT version FROM games WHERE id = $1::uuid",
    [ST_GAME_VERSIONS] = "SELECT id::text, version FROM games WHERE id = ANY($1::uuid[])",
    /* What ST_GAME_COMMIT does besides, for a transaction of several statements (after
     * the game's row was written in it, so that a lease set before is seen): the webhook
     * deliveries of the events $3 and, while watched, the notification of seq $2. */
    [ST_AFTER_COMMIT] = "WITH w AS (INSERT INTO webhook_deliveries (game_id, seq) "
                        "SELECT h.game_id, (x->>'seq')::integer FROM webhooks h, "
                        "json_array_elements($3::json) AS x WHERE h.game_id = $1::uuid "
                        "RETURNING 1) "
                        "SELECT (SELECT count(*) FROM w), (SELECT pg_notify('" STORE_EVENTS_CHANNEL
                        "', $1::uuid::text || ':' || $2::integer) FROM games WHERE id = "
                        "$1::uuid AND watched_until > now())",
    [ST_EVENTS_EACH] = "SELECT seq, type, payload::text FROM events WHERE game_id = $1::uuid "
                       "AND seq > $2::integer ORDER BY seq LIMIT $3::integer",
    [ST_WEBHOOK_PUT] = "INSERT INTO webhooks (game_id, url, secret) VALUES ($1::uuid, $2, $3) "
                       "ON CONFLICT (game_id) DO UPDATE SET url = EXCLUDED.url, "
                       "secret = EXCLUDED.secret, updated_at = now()",
    [ST_WEBHOOK_DELETE] = "DELETE FROM webhooks WHERE game_id = $1::uuid",
    [ST_WEBHOOK_STATE] =
        "SELECT w.url, to_char(w.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'), "
        "w.failed_attempts, w.last_error, w.last_error_seq, w.last_error_status, "
        "to_char(w.last_error_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'), "
        "d.delivered, d.pending, d.gave_up, "
        "(SELECT max(seq) FROM webhook_deliveries x WHERE x.game_id = w.game_id AND "
        "(x.delivered_at IS NOT NULL OR x.gave_up) AND x.seq < coalesce(d.first_pending, "
        "2147483647)) "
        "FROM webhooks w, LATERAL (SELECT count(*) FILTER (WHERE delivered_at IS NOT NULL) "
        "AS delivered, count(*) FILTER (WHERE delivered_at IS NULL AND NOT gave_up) AS "
        "pending, count(*) FILTER (WHERE gave_up) AS gave_up, min(seq) FILTER (WHERE "
        "delivered_at IS NULL AND NOT gave_up) AS first_pending FROM webhook_deliveries "
        "WHERE game_id = w.game_id) d WHERE w.game_id = $1::uuid",
    /* Claims (leases for $1 ms) up to $2 due deliveries, each the first undelivered of its
     * game (so a game's events go out in order), skipping rows other servers hold. */
    [ST_WEBHOOK_CLAIM] =
        "WITH c AS (SELECT d.game_id, d.seq FROM webhook_deliveries d WHERE d.delivered_at IS "
        "NULL AND NOT d.gave_up AND d.next_attempt_at <= now() AND NOT EXISTS (SELECT 1 FROM "
        "webhook_deliveries p WHERE p.game_id = d.game_id AND p.seq < d.seq AND "
        "p.delivered_at IS NULL AND NOT p.gave_up) ORDER BY d.next_attempt_at "
        "LIMIT $2::integer FOR UPDATE OF d SKIP LOCKED) "
        "UPDATE webhook_deliveries d SET attempts = d.attempts + 1, next_attempt_at = now() + "
        "$1::integer * interval '1 millisecond' FROM c, webhooks w, events e WHERE d.game_id "
        "= c.game_id AND d.seq = c.seq AND w.game_id = d.game_id AND e.game_id = d.game_id "
        "AND e.seq = d.seq RETURNING d.game_id::text, d.seq, d.attempts, w.url, w.secret, "
        "e.payload::text",
    /* The outcome of an attempt: delivered ($3), or due again in $6 ms, or given up ($7). */
    [ST_WEBHOOK_DONE] =
        "WITH d AS (UPDATE webhook_deliveries SET last_status = $4::integer, delivered_at = "
        "CASE WHEN $3::boolean THEN now() END, gave_up = NOT $3::boolean AND $7::boolean, "
        "next_attempt_at = now() + $6::integer * interval '1 millisecond' WHERE game_id = "
        "$1::uuid AND seq = $2::integer RETURNING game_id) "
        "UPDATE webhooks w SET failed_attempts = w.failed_attempts + 1, last_error = $5, "
        "last_error_seq = $2::integer, last_error_status = $4::integer, last_error_at = now() "
        "FROM d WHERE w.game_id = d.game_id AND NOT $3::boolean",
    [ST_COUNTS] = "SELECT count(*) FILTER (WHERE status = 'active'), count(*) FILTER (WHERE "
                  "status = 'finished'), (SELECT count(*) FROM webhook_deliveries WHERE "
                  "delivered_at IS NULL AND NOT gave_up) FROM games",
    /* The lease of a watch (0004): the games $1 are watched for $2 ms more. */
    [ST_GAMES_WATCH] = "UPDATE games SET watched_until = greatest(watched_until, now() + "
                       "$2::integer * interval '1 millisecond') WHERE id = ANY($1::uuid[])",
};

/* A thread's connection. */
struct conn {
    PGconn *pg;            /* NULL while disconnected */
    long long next_try_ms; /* no reconnect attempt before this */
};

static char *conninfo;              /* from store_init */
static void (*delivery_hook)(void); /* called after a commit that wrote deliveries */
static pthread_key_t conn_key;      /* the thread's struct conn */
static pthread_once_t key_once = PTHREAD_ONCE_INIT;

static void conn_free(void *p)
{
    struct conn *c = p;
    if (!c) return;
    if (c->pg) PQfinish(c->pg);
    free(c);
}

static void key_make(void)
{
    if (pthread_key_create(&conn_key, conn_free) != 0) abort();
}

int store_init(const char *info)
{
    pthread_once(&key_once, key_make);
    free(conninfo);
    conninfo = strdup(info);
    return conninfo ? 0 : -1;
}

void store_shutdown(void)
{
    pthread_once(&key_once, key_make);
    conn_free(pthread_getspecific(conn_key));
    pthread_setspecific(conn_key, NULL);
    free(conninfo);
    conninfo = NULL;
}

/* Logs the failure of `what` with libpq's message. */
static void log_pg(const char *what, PGconn *pg, const PGresult *res)
{
    const char *msg = res ? PQresultErrorMessage(res) : PQerrorMessage(pg);
    const char *state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
    char clean[512];
    snprintf(clean, sizeof clean, "%s", msg ? msg : "");
    size_t n = strlen(clean);
    while (n && (clean[n - 1] == '\n' || clean[n - 1] == ' ')) clean[--n] = '\0';
    log_kv(LOG_ERROR, "database error", "op", what, "sqlstate", state, "error", clean, NULL);
}

/* PostgreSQL's notices (NOTICE, WARNING) go to the log at debug level. */
static void on_notice(void *arg, const char *message)
{
    (void)arg;
    char clean[512];
    snprintf(clean, sizeof clean, "%s", message);
    size_t n = strlen(clean);
    while (n && (clean[n - 1] == '\n' || clean[n - 1] == ' ')) clean[--n] = '\0';
    log_kv(LOG_DEBUG, "database notice", "notice", clean, NULL);
}

/* Connects and (with `prepare`) prepares every statement. Returns the connection or NULL. */
static PGconn *connect_prepared(int prepare)
{
    PGconn *pg = PQconnectdb(conninfo);
    if (PQstatus(pg) != CONNECTION_OK) {
        log_pg("connect", pg, NULL);
        metrics_db_error(1);
        PQfinish(pg);
        return NULL;
    }
    PQsetNoticeProcessor(pg, on_notice, NULL);
    for (int i = 0; prepare && i < ST_COUNT; i++) {
        char name[16];
        snprintf(name, sizeof name, "s%d", i);
        PGresult *res = PQprepare(pg, name, stmt_sql[i], 0, NULL);
        int ok = PQresultStatus(res) == PGRES_COMMAND_OK;
        if (!ok) log_pg("prepare", pg, res);
        PQclear(res);
        if (!ok) {
            PQfinish(pg);
            return NULL;
        }
    }
    return pg;
}

/*
 * The calling thread's connection, connecting when needed; NULL while unreachable.
 * Without `prepare` a new connection has no prepared statements (for migrations, which
 * create the tables the statements need; such a connection must be dropped after use).
 */
static PGconn *conn_get_opt(int prepare)
{
    pthread_once(&key_once, key_make);
    struct conn *c = pthread_getspecific(conn_key);
    if (!c) {
        c = calloc(1, sizeof *c);
        if (!c) return NULL;
        if (pthread_setspecific(conn_key, c) != 0) {
            free(c);
            return NULL;
        }
    }
    if (c->pg && PQstatus(c->pg) != CONNECTION_OK) {
        PQfinish(c->pg);
        c->pg = NULL;
    }
    if (!c->pg) {
        long long now = api_now_ms();
        if (now < c->next_try_ms) return NULL;
        c->pg = connect_prepared(prepare);
        if (!c->pg)
            c->next_try_ms = now + RECONNECT_DELAY_MS;
        else
            log_kv(LOG_INFO, "database connected", NULL);
    }
    return c->pg;
}

static PGconn *conn_get(void)
{
    return conn_get_opt(1);
}

/* Closes the calling thread's connection (a new one is made on the next use). */
static void conn_drop(void)
{
    struct conn *c = pthread_getspecific(conn_key);
    if (c && c->pg) {
        PQfinish(c->pg);
        c->pg = NULL;
    }
}

/* Maps a failed result to a status; drops the connection when it is gone. */
static enum store_status fail_status(PGconn *pg, const PGresult *res, const char *what)
{
    const char *state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
    if (PQstatus(pg) != CONNECTION_OK || (state && strncmp(state, "08", 2) == 0) ||
        (state && strncmp(state, "57P", 3) == 0)) {
        log_kv(LOG_WARN, "database connection lost", "op", what, NULL);
        metrics_db_error(1);
        struct conn *c = pthread_getspecific(conn_key);
        if (c && c->pg == pg) {
            PQfinish(pg);
            c->pg = NULL;
        }
        return STORE_UNAVAILABLE;
    }
    if (state && strcmp(state, "23505") == 0) return STORE_DUPLICATE;
    if (state && (strcmp(state, "40001") == 0 || strcmp(state, "40P01") == 0))
        return STORE_CONFLICT;
    log_pg(what, pg, res);
    metrics_db_error(0);
    return STORE_ERROR;
}

/*
 * Runs prepared statement `st` with `n` parameters (text, except those with a nonzero
 * length in `lens`, which are binary) on *pgp. On success *out holds the result (caller
 * PQclears) and STORE_OK is returned; else the mapped failure (nothing to clear). A
 * connection found dead outside a transaction is replaced and the statement run once
 * more (*pgp then names the new connection), so a database restart costs no request.
 */
static enum store_status run_fmt(PGconn **pgp, enum stmt st, int n, const char *const *vals,
                                 const int *lens, int binary, PGresult **out)
{
    char name[16];
    snprintf(name, sizeof name, "s%d", (int)st);
    int formats[MAX_PARAMS] = {0};
    if (n > MAX_PARAMS) return STORE_ERROR;
    for (int i = 0; lens && i < n; i++) formats[i] = lens[i] ? 1 : 0;
    for (int attempt = 0;; attempt++) {
        PGconn *pg = *pgp;
        int idle = PQtransactionStatus(pg) == PQTRANS_IDLE;
        PGresult *res = PQexecPrepared(pg, name, n, vals, lens, formats, binary);
        ExecStatusType rs = PQresultStatus(res);
        if (rs == PGRES_COMMAND_OK || rs == PGRES_TUPLES_OK) {
            *out = res;
            return STORE_OK;
        }
        enum store_status s = fail_status(pg, res, stmt_sql[st]);
        PQclear(res);
        if (s == STORE_UNAVAILABLE && idle && attempt == 0 && (*pgp = conn_get()) != NULL) continue;
        return s;
    }
}

/* run_fmt() with results in text. */
static enum store_status run(PGconn **pgp, enum stmt st, int n, const char *const *vals,
                             const int *lens, PGresult **out)
{
    return run_fmt(pgp, st, n, vals, lens, 0, out);
}

/* Runs `st` and discards the result; *affected (if not NULL) gets the rows changed. */
static enum store_status run_cmd(PGconn **pgp, enum stmt st, int n, const char *const *vals,
                                 const int *lens, long *affected)
{
    PGresult *res;
    enum store_status s = run(pgp, st, n, vals, lens, &res);
    if (s != STORE_OK) return s;
    if (affected) *affected = strtol(PQcmdTuples(res), NULL, 10);
    PQclear(res);
    return STORE_OK;
}

/* Column `col` of row `row` as a long, or `null_value` when NULL. */
static long get_long(const PGresult *res, int row, int col, long null_value)
{
    if (PQgetisnull(res, row, col)) return null_value;
    return strtol(PQgetvalue(res, row, col), NULL, 10);
}

/* ST_AFTER_COMMIT with vals {id, last seq, events}: the webhook deliveries it wrote into
 * *deliveries. */
static enum store_status after_commit(PGconn **pgp, const char *const *vals, long *deliveries)
{
    PGresult *res;
    enum store_status s = run(pgp, ST_AFTER_COMMIT, 3, vals, NULL, &res);
    if (s != STORE_OK) return s;
    *deliveries = PQntuples(res) == 1 ? get_long(res, 0, 0, 0) : 0;
    PQclear(res);
    return STORE_OK;
}

/* Runs a plain SQL command (BEGIN, COMMIT, a migration script). */
static enum store_status exec_sql(PGconn *pg, const char *sql, const char *what)
{
    PGresult *res = PQexec(pg, sql);
    ExecStatusType rs = PQresultStatus(res);
    enum store_status s = STORE_OK;
    if (rs != PGRES_COMMAND_OK && rs != PGRES_TUPLES_OK) s = fail_status(pg, res, what);
    PQclear(res);
    return s;
}

/* Starts a transaction, on a new connection if the thread's one turns out dead. */
static enum store_status begin(PGconn **pgp)
{
    enum store_status s = exec_sql(*pgp, "BEGIN", "begin");
    if (s == STORE_UNAVAILABLE && (*pgp = conn_get()) != NULL) s = exec_sql(*pgp, "BEGIN", "begin");
    return s;
}

/* Ends a failed transaction if the connection is still there. */
static void rollback(PGconn *pg)
{
    struct conn *c = pthread_getspecific(conn_key);
    if (c && c->pg == pg && PQstatus(pg) == CONNECTION_OK &&
        PQtransactionStatus(pg) != PQTRANS_IDLE) {
        PGresult *res = PQexec(pg, "ROLLBACK");
        PQclear(res);
    }
}

enum store_status store_ping(void)
{
    PGconn *pg = conn_get();
    if (!pg) return STORE_UNAVAILABLE;
    return run_cmd(&pg, ST_PING, 0, NULL, NULL, NULL);
}

enum store_status store_migrate(const struct store_migration *list, size_t n)
{
    conn_drop();
    PGconn *pg = conn_get_opt(0);
    if (!pg) return STORE_UNAVAILABLE;
    enum store_status s = exec_sql(pg, "SELECT pg_advisory_lock(" MIGRATION_LOCK_KEY ")", "lock");
    if (s != STORE_OK) return s;
    s = exec_sql(pg,
                 "CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, "
                 "name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())",
                 "schema_migrations");
    for (size_t i = 0; s == STORE_OK && i < n; i++) {
        char ver[16];
        snprintf(ver, sizeof ver, "%d", list[i].version);
        const char *vals[2] = {ver, list[i].name};
        PGresult *res =
            PQexecParams(pg, "SELECT 1 FROM schema_migrations WHERE version = $1::integer", 1, NULL,
                         vals, NULL, NULL, 0);
        if (PQresultStatus(res) != PGRES_TUPLES_OK) {
            s = fail_status(pg, res, "schema_migrations");
            PQclear(res);
            break;
        }
        int done = PQntuples(res) > 0;
        PQclear(res);
        if (done) continue;
        log_kv(LOG_INFO, "applying migration", "file", list[i].name, NULL);
        s = exec_sql(pg, "BEGIN", "begin");
        if (s == STORE_OK) s = exec_sql(pg, list[i].sql, list[i].name);
        if (s == STORE_OK) {
            res = PQexecParams(pg,
                               "INSERT INTO schema_migrations (version, name) "
                               "VALUES ($1::integer, $2)",
                               2, NULL, vals, NULL, NULL, 0);
            if (PQresultStatus(res) != PGRES_COMMAND_OK) s = fail_status(pg, res, "record");
            PQclear(res);
        }
        if (s == STORE_OK) s = exec_sql(pg, "COMMIT", "commit");
        if (s != STORE_OK) rollback(pg);
    }
    if (conn_get_opt(0) == pg) {
        enum store_status u =
            exec_sql(pg, "SELECT pg_advisory_unlock(" MIGRATION_LOCK_KEY ")", "unlock");
        if (s == STORE_OK) s = u;
    }
    if (s == STORE_OK) {
        /* Forget idempotent answers older than a day while we are here. */
        s = exec_sql(pg, "DELETE FROM idempotency WHERE created_at < now() - interval '24 hours'",
                     "idempotency purge");
    }
    conn_drop();
    return s;
}

/* Remembers an idempotent answer inside the current transaction. */
static enum store_status idem_put(PGconn *pg, const struct store_idem *idem)
{
    char status[16];
    snprintf(status, sizeof status, "%d", idem->status);
    const char *vals[7] = {idem->scope, idem->key,      (const char *)idem->request_hash,
                           status,      idem->location, idem->etag,
                           idem->body};
    int lens[7] = {0, 0, AUTH_HASH_LEN, 0, 0, 0, 0};
    long n = 0;
    enum store_status s = run_cmd(&pg, ST_IDEM_PUT, 7, vals, lens, &n);
    if (s == STORE_OK && n != 1) s = STORE_DUPLICATE;
    return s;
}

enum store_status store_game_create(const struct store_new_game *g)
{
    PGconn *pg = conn_get();
    if (!pg) return STORE_UNAVAILABLE;
    char seed[24], last_seq[16];
    long deliveries = 0;
    snprintf(seed, sizeof seed, "%" PRIu64, g->seed);
    snprintf(last_seq, sizeof last_seq, "%d", g->last_seq);
    enum store_status s = begin(&pg);
    if (s == STORE_OK) {
        const char *vals[9] = {g->id,     g->ruleset, g->options_json,
                               seed,      g->start,   g->deck_json,
                               g->status, last_seq,   (const char *)g->snapshot};
        int lens[9] = {0, 0, 0, 0, 0, 0, 0, 0, (int)g->snapshot_len};
        s = run_cmd(&pg, ST_GAME_INSERT, 9, vals, lens, NULL);
    }
    for (int i = 0; s == STORE_OK && i < g->nplayers; i++) {
        char seat[16];
        snprintf(seat, sizeof seat, "%d", i);
        const char *vals[4] = {g->id, seat, g->players[i].name,
                               (const char *)g->players[i].token_hash};
        int lens[4] = {0, 0, 0, AUTH_HASH_LEN};
        s = run_cmd(&pg, ST_PLAYER_INSERT, 4, vals, lens, NULL);
    }
    if (s == STORE_OK) {
        const char *vals[3] = {g->id, "1", g->events_json};
        s = run_cmd(&pg, ST_EVENTS_INSERT, 3, vals, NULL, NULL);
    }
    if (s == STORE_OK && g->idem) s = idem_put(pg, g->idem);
    if (s == STORE_OK && g->webhook_url) {
        const char *vals[3] = {g->id, g->webhook_url, g->webhook_secret};
        s = run_cmd(&pg, ST_WEBHOOK_PUT, 3, vals, NULL, NULL);
        const char *after[3] = {g->id, last_seq, g->events_json};
        if (s == STORE_OK) s = after_commit(&pg, after, &deliveries);
    }
    if (s == STORE_OK) s = exec_sql(pg, "COMMIT", "commit");
    if (s != STORE_OK) rollback(pg);
    if (s == STORE_OK && deliveries > 0 && delivery_hook) delivery_hook();
    return s;
}

/* A 4-byte integer of a binary result (network byte order). */
static int get_int4(const PGresult *res, int row, int col)
{
    const unsigned char *p = (const unsigned char *)PQgetvalue(res, row, col);
    if (PQgetlength(res, row, col) != 4) return -1;
    return (int)((uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]);
}

enum store_status store_game_load(const char *id, struct store_game *out)
{
    PGconn *pg = conn_get();
    if (!pg) return STORE_UNAVAILABLE;
    const char *vals[1] = {id};
    PGresult *res;
    enum store_status s = run_fmt(&pg, ST_GAME_LOAD, 1, vals, NULL, 1, &res);
    if (s != STORE_OK) return s;
    int n = PQntuples(res);
    if (n < 1) {
        PQclear(res);
        return STORE_NOT_FOUND;
    }
    s = STORE_ERROR;
    out->version = get_int4(res, 0, 0);
    out->last_seq = get_int4(res, 0, 1);
    size_t len = (size_t)PQgetlength(res, 0, 5);
    if (PQgetisnull(res, 0, 5) || len > sizeof out->snapshot) {
        log_kv(LOG_ERROR, "stored snapshot too large or missing", "game", id, NULL);
        goto out;
    }
    memcpy(out->snapshot, PQgetvalue(res, 0, 5), len);
    out->snapshot_len = len;
    out->nplayers = 0;
    for (int i = 0; i < n && i < CC_MAX_PLAYERS; i++) {
        struct store_player *p = &out->players[i];
        size_t nl = (size_t)PQgetlength(res, i, 3);
        if (get_int4(res, i, 2) != i || nl > STORE_NAME_MAX ||
            PQgetlength(res, i, 4) != AUTH_HASH_LEN)
            goto out;
        memcpy(p->name, PQgetvalue(res, i, 3), nl);
        p->name[nl] = '\0';
        memcpy(p->token_hash, PQgetvalue(res, i, 4), AUTH_HASH_LEN);
        out->nplayers++;
    }
    s = STORE_OK;
out:
    PQclear(res);
    return s;
}

enum store_status store_game_version(const char *id, int *version)
{
    PGconn *pg = conn_get();
    if (!pg) return STORE_UNAVAILABLE;
    const char *vals[1] = {id};
    PGresult *res;
    enum store_status s = run_fmt(&pg, ST_GAME_VERSION, 1, vals, NULL, 1, &res);
    if (s != STORE_OK) return s;
    if (PQntuples(res) != 1)
        s = STORE_NOT_FOUND;
    else if ((*version = get_int4(res, 0, 0)) < 0)
        s = STORE_ERROR;
    PQclear(res);
    return s;
}

/* The array literal {id,id,...} of `ids` (valid UUIDs: nothing to quote); caller frees. */
static char *uuid_array(const char *const *ids, size_t n)
{
    char *list = malloc(n * (AUTH_UUID_LEN + 1) + 2);
    if (!list) return NULL;
    size_t o = 0;
    list[o++] = '{';
    for (size_t i = 0; i < n; i++) {
        if (i) list[o++] = ',';
        memcpy(list + o, ids[i], AUTH_UUID_LEN);
        o += AUTH_UUID_LEN;
    }
    list[o++] = '}';
    list[o] = '\0';
    return list;
}

enum store_status store_games_watch(const char *const *ids, size_t n, int lease_ms, long *found)
{
    *found = 0;
    if (n == 0) return STORE_OK;
    PGconn *pg = conn_get();
    if (!pg) return STORE_UNAVAILABLE;
    char *list = uuid_array(ids, n);
    if (!list) return STORE_ERROR;
    char lease[16];
    snprintf(lease, sizeof lease, "%d", lease_ms);
    const char *vals[2] = {list, lease};
    enum store_status s = run_cmd(&pg, ST_GAMES_WATCH, 2, vals, NULL, found);
    free(list);
    return s;
}

void store_set_delivery_hook(void (*fn)(void))
{
    delivery_hook = fn;
}

enum store_status store_game_versions(const char *const *ids, size_t n, int *versions)
{
    for (size_t i = 0; i < n; i++) versions[i] = -1;
    if (n == 0) return STORE_OK;
    PGconn *pg = conn_get();
    if (!pg) return STORE_UNAVAILABLE;
    char *list = uuid_array(ids, n);
    if (!list) return STORE_ERROR;
    const char *vals[1] = {list};
    PGresult *res;
    enum store_status s = run(&pg, ST_GAME_VERSIONS, 1, vals, NULL, &res);
    free(list);
    if (s != STORE_OK) return s;
    for (int r = 0; r < PQntuples(res); r++) {
        const char *id = PQgetvalue(res, r, 0);
        int version = (int)strtol(PQgetvalue(res, r, 1), NULL, 10);
        for (size_t i = 0; i < n; i++)
            if (strcasecmp(ids[i], id) == 0) versions[i] = version;
    }
    PQclear(res);
    return STORE_OK;
}

/* The action of `c` with its idempotent answer: a transaction of several statements. */
static enum store_status commit_remembered(PGconn *pg, const struct store_commit *c,
                                           long *deliveries)
{
    char version[16], new_version[16], last_seq[16], seat[16];
    snprintf(version, sizeof version, "%d", c->version);
    snprintf(new_version, sizeof new_version, "%d", c->version + 1);
    snprintf(last_seq, sizeof last_seq, "%d", c->last_seq);
    snprintf(seat, sizeof seat, "%d", c->seat);
    enum store_status s = begin(&pg);
    if (s == STORE_OK) {
        const char *vals[5] = {c->id, version, c->status, last_seq, (const char *)c->snapshot};
        int lens[5] = {0, 0, 0, 0, (int)c->snapshot_len};
        long n = 0;
        s = run_cmd(&pg, ST_GAME_UPDATE, 5, vals, lens, &n);
        if (s == STORE_OK && n != 1) s = STORE_CONFLICT;
    }
    if (s == STORE_OK) {
        const char *vals[5] = {c->id, new_version, seat, c->kind, c->action_json};
        s = run_cmd(&pg, ST_ACTION_INSERT, 5, vals, NULL, NULL);
    }
    if (s == STORE_OK) {
        const char *vals[3] = {c->id, new_version, c->events_json};
        s = run_cmd(&pg, ST_EVENTS_INSERT, 3, vals, NULL, NULL);
    }
    if (s == STORE_OK) s = idem_put(pg, c->idem);
    if (s == STORE_OK) {
        const char *vals[3] = {c->id, last_seq, c->events_json};
        s = after_commit(&pg, vals, deliveries);
    }
    if (s == STORE_OK) s = exec_sql(pg, "COMMIT", "commit");
    if (s != STORE_OK) rollback(pg);
    return s;
}

enum store_status store_game_commit(const struct store_commit *c)
{
    PGconn *pg = conn_get();
    if (!pg) return STORE_UNAVAILABLE;
    enum store_status s;
    long deliveries = 0;
    if (c->idem) {
        s = commit_remembered(pg, c, &deliveries);
    } else {
        char version[16], last_seq[16], seat[16];
        snprintf(version, sizeof version, "%d", c->version);
        snprintf(last_seq, sizeof last_seq, "%d", c->last_seq);
        snprintf(seat, sizeof seat, "%d", c->seat);
        const char *vals[9] = {
            c->id, version, c->status,      last_seq,      (const char *)c->snapshot,
            seat,  c->kind, c->action_json, c->events_json};
        int lens[9] = {0, 0, 0, 0, (int)c->snapshot_len, 0, 0, 0, 0};
        PGresult *res;
        s = run(&pg, ST_GAME_COMMIT, 9, vals, lens, &res);
        if (s == STORE_OK) {
            if (PQntuples(res) != 1)
                s = STORE_CONFLICT;
            else
                deliveries = get_long(res, 0, 0, 0);
            PQclear(res);
        }
    }
    /* A version that moved on shows as a duplicate action or event key too. */
    if (s == STORE_DUPLICATE && !c->idem) s = STORE_CONFLICT;
    if (s == STORE_OK && deliveries > 0 && delivery_hook) delivery_hook();
    return s;
}

enum store_status store_events(const char *id, int after, int limit, char **json, int *count)
{
    *json = NULL;
    *count = 0;
    PGconn *pg = conn_get();
    if (!pg) return STORE_UNAVAILABLE;
    char a[16], l[16];
    snprintf(a, sizeof a, "%d", after);
    snprintf(l, sizeof l, "%d", limit);
    const char *vals[3] = {id, a, l};
    PGresult *res;
    enum store_status s = run(&pg, ST_EVENTS_LIST, 3, vals, NULL, &res);
    if (s != STORE_OK) return s;
    int rows = PQntuples(res);
    if (rows == 0) {
        PQclear(res);
        return STORE_NOT_FOUND;
    }
    int n = PQgetisnull(res, 0, 0) ? 0 : rows;
    size_t size = 3;
    for (int i = 0; i < n; i++) size += (size_t)PQgetlength(res, i, 0) + 1;
    char *buf = malloc(size);
    if (!buf) {
        PQclear(res);
        return STORE_ERROR;
    }
    size_t o = 0;
    buf[o++] = '[';
    for (int i = 0; i < n; i++) {
        if (i) buf[o++] = ',';
        size_t len = (size_t)PQgetlength(res, i, 0);
        memcpy(buf + o, PQgetvalue(res, i, 0), len);
        o += len;
    }
    buf[o++] = ']';
    buf[o] = '\0';
    PQclear(res);
    *json = buf;
    *count = n;
    return STORE_OK;
}

enum store_status store_idem_get(const char *scope, const char *key, struct store_idem *out)
{
    PGconn *pg = conn_get();
    if (!pg) return STORE_UNAVAILABLE;
    const char *vals[2] = {scope, key};
    PGresult *res;
    enum store_status s = run(&pg, ST_IDEM_GET, 2, vals, NULL, &res);
    if (s != STORE_OK) return s;
    if (PQntuples(res) != 1) {
        PQclear(res);
        return STORE_NOT_FOUND;
    }
    size_t len = 0;
    unsigned char *h = PQunescapeBytea((const unsigned char *)PQgetvalue(res, 0, 0), &len);
    if (h && len == AUTH_HASH_LEN) memcpy(out->request_hash, h, AUTH_HASH_LEN);
    PQfreemem(h);
    out->status = (int)strtol(PQgetvalue(res, 0, 1), NULL, 10);
    out->location = PQgetisnull(res, 0, 2) ? NULL : strdup(PQgetvalue(res, 0, 2));
    out->etag = PQgetisnull(res, 0, 3) ? NULL : strdup(PQgetvalue(res, 0, 3));
    out->body = strdup(PQgetvalue(res, 0, 4));
    PQclear(res);
    if (!out->body || len != AUTH_HASH_LEN) {
        store_idem_free(out);
        return STORE_ERROR;
    }
    return STORE_OK;
}

void store_idem_free(struct store_idem *idem)
{
    free((char *)idem->location);
    free((char *)idem->etag);
    free((char *)idem->body);
    idem->location = NULL;
    idem->etag = NULL;
    idem->body = NULL;
}

/* ---- Live updates and webhooks (migrations/0003_webhooks.sql) ---- */

enum store_status store_events_each(const char *id, int after, int limit,
                                    int (*fn)(void *arg, int seq, const char *type,
                                              const char *payload, size_t len),
                                    void *arg, int *count)
{
    *count = 0;
    PGconn *pg = conn_get();
    if (!pg) return STORE_UNAVAILABLE;
    char a[16], l[16];
    snprintf(a, sizeof a, "%d", after);
    snprintf(l, sizeof l, "%d", limit);
    const char *vals[3] = {id, a, l};
    PGresult *res;
    enum store_status s = run(&pg, ST_EVENTS_EACH, 3, vals, NULL, &res);
    if (s != STORE_OK) return s;
    int rows = PQntuples(res);
    for (int i = 0; i < rows; i++) {
        int seq = (int)strtol(PQgetvalue(res, i, 0), NULL, 10);
        if (fn(arg, seq, PQgetvalue(res, i, 1), PQgetvalue(res, i, 2),
               (size_t)PQgetlength(res, i, 2))) {
            s = STORE_ERROR;
            break;
        }
        (*count)++;
    }
    PQclear(res);
    return s;
}

enum store_status store_webhook_set(const char *id, const char *url, const char *secret,
                                    const struct store_idem *idem)
{
    PGconn *pg = conn_get();
    if (!pg) return STORE_UNAVAILABLE;
    const char *vals[3] = {id, url, secret};
    if (!idem) return run_cmd(&pg, ST_WEBHOOK_PUT, 3, vals, NULL, NULL);
    enum store_status s = begin(&pg);
    if (s == STORE_OK) s = run_cmd(&pg, ST_WEBHOOK_PUT, 3, vals, NULL, NULL);
    if (s == STORE_OK) s = idem_put(pg, idem);
    if (s == STORE_OK) s = exec_sql(pg, "COMMIT", "commit");
    if (s != STORE_OK) rollback(pg);
    return s;
}

enum store_status store_webhook_delete(const char *id, int *deleted)
{
    *deleted = 0;
    PGconn *pg = conn_get();
    if (!pg) return STORE_UNAVAILABLE;
    const char *vals[1] = {id};
    long n = 0;
    enum store_status s = run_cmd(&pg, ST_WEBHOOK_DELETE, 1, vals, NULL, &n);
    if (s == STORE_OK) *deleted = n > 0;
    return s;
}

/* Copies column `col` of row 0 of `res` into `dst` (size `cap`); "" when NULL. */
static void copy_text(const PGresult *res, int col, char *dst, size_t cap)
{
    snprintf(dst, cap, "%s", PQgetisnull(res, 0, col) ? "" : PQgetvalue(res, 0, col));
}

enum store_status store_webhook_get(const char *id, struct store_webhook_state *out)
{
    memset(out, 0, sizeof *out);
    PGconn *pg = conn_get();
    if (!pg) return STORE_UNAVAILABLE;
    const char *vals[1] = {id};
    PGresult *res;
    enum store_status s = run(&pg, ST_WEBHOOK_STATE, 1, vals, NULL, &res);
    if (s != STORE_OK) return s;
    if (PQntuples(res) != 1) {
        PQclear(res);
        return STORE_NOT_FOUND;
    }
    copy_text(res, 0, out->url, sizeof out->url);
    copy_text(res, 1, out->since, sizeof out->since);
    out->failed_attempts = get_long(res, 0, 2, 0);
    out->has_error = !PQgetisnull(res, 0, 3);
    copy_text(res, 3, out->last_error, sizeof out->last_error);
    out->last_error_seq = (int)get_long(res, 0, 4, -1);
    out->last_error_status = (int)get_long(res, 0, 5, -1);
    copy_text(res, 6, out->last_error_at, sizeof out->last_error_at);
    out->delivered = get_long(res, 0, 7, 0);
    out->pending = get_long(res, 0, 8, 0);
    out->gave_up = get_long(res, 0, 9, 0);
    out->delivered_up_to = (int)get_long(res, 0, 10, -1);
    PQclear(res);
    return STORE_OK;
}

enum store_status store_webhook_claim(int lease_ms, struct store_delivery *out, int max, int *n)
{
    *n = 0;
    PGconn *pg = conn_get();
    if (!pg) return STORE_UNAVAILABLE;
    char lease[16], limit[16];
    snprintf(lease, sizeof lease, "%d", lease_ms);
    snprintf(limit, sizeof limit, "%d", max);
    const char *vals[2] = {lease, limit};
    PGresult *res;
    enum store_status s = run(&pg, ST_WEBHOOK_CLAIM, 2, vals, NULL, &res);
    if (s != STORE_OK) return s;
    for (int i = 0; i < PQntuples(res) && *n < max; i++) {
        struct store_delivery *d = &out[*n];
        memset(d, 0, sizeof *d);
        snprintf(d->game, sizeof d->game, "%s", PQgetvalue(res, i, 0));
        d->seq = (int)get_long(res, i, 1, 0);
        d->attempt = (int)get_long(res, i, 2, 1);
        d->url = strdup(PQgetvalue(res, i, 3));
        d->secret = strdup(PQgetvalue(res, i, 4));
        d->payload = strdup(PQgetvalue(res, i, 5));
        if (!d->url || !d->secret || !d->payload) {
            /* Left leased: another attempt comes once the lease runs out. */
            store_delivery_free(d);
            continue;
        }
        (*n)++;
    }
    PQclear(res);
    return STORE_OK;
}

void store_delivery_free(struct store_delivery *d)
{
    if (!d) return;
    free(d->url);
    free(d->secret);
    free(d->payload);
    d->url = d->secret = d->payload = NULL;
}

enum store_status store_webhook_done(const char *game, int seq, int ok, int http_status,
                                     const char *error, int retry_ms, int gave_up)
{
    PGconn *pg = conn_get();
    if (!pg) return STORE_UNAVAILABLE;
    char sq[16], st[16], retry[16];
    snprintf(sq, sizeof sq, "%d", seq);
    snprintf(st, sizeof st, "%d", http_status);
    snprintf(retry, sizeof retry, "%d", retry_ms);
    const char *vals[7] = {game,  sq,    ok ? "true" : "false",     http_status > 0 ? st : NULL,
                           error, retry, gave_up ? "true" : "false"};
    return run_cmd(&pg, ST_WEBHOOK_DONE, 7, vals, NULL, NULL);
}

enum store_status store_counts(long *active, long *finished, long *deliveries)
{
    *active = *finished = *deliveries = 0;
    PGconn *pg = conn_get();
    if (!pg) return STORE_UNAVAILABLE;
    PGresult *res;
    enum store_status s = run(&pg, ST_COUNTS, 0, NULL, NULL, &res);
    if (s != STORE_OK) return s;
    if (PQntuples(res) == 1) {
        *active = get_long(res, 0, 0, 0);
        *finished = get_long(res, 0, 1, 0);
        *deliveries = get_long(res, 0, 2, 0);
    }
    PQclear(res);
    return STORE_OK;
}

/* A connection that only listens (LISTEN): the live hub's, apart from the thread ones. */
struct store_listener {
    PGconn *pg; /* connected, listening */
};

struct store_listener *store_listener_new(void)
{
    if (!conninfo) return NULL;
    PGconn *pg = PQconnectdb(conninfo);
    if (PQstatus(pg) != CONNECTION_OK) {
        log_pg("listen connect", pg, NULL);
        metrics_db_error(1);
        PQfinish(pg);
        return NULL;
    }
    PQsetNoticeProcessor(pg, on_notice, NULL);
    PGresult *res = PQexec(pg, "LISTEN " STORE_EVENTS_CHANNEL);
    int ok = PQresultStatus(res) == PGRES_COMMAND_OK;
    if (!ok) log_pg("listen", pg, res);
    PQclear(res);
    struct store_listener *l = ok ? malloc(sizeof *l) : NULL;
    if (!l) {
        PQfinish(pg);
        return NULL;
    }
    l->pg = pg;
    return l;
}

int store_listener_fd(const struct store_listener *l)
{
    return PQsocket(l->pg);
}

int store_listener_drain(struct store_listener *l, void (*fn)(const char *payload, void *arg),
                         void *arg)
{
    if (!PQconsumeInput(l->pg) || PQstatus(l->pg) != CONNECTION_OK) {
        log_kv(LOG_WARN, "database connection lost", "op", "listen", NULL);
        metrics_db_error(1);
        return -1;
    }
    PGnotify *n;
    while ((n = PQnotifies(l->pg)) != NULL) {
        fn(n->extra, arg);
        PQfreemem(n);
    }
    return 0;
}

int store_listener_ping(struct store_listener *l)
{
    PGresult *res = PQexec(l->pg, "SELECT 1");
    int ok = PQresultStatus(res) == PGRES_TUPLES_OK;
    PQclear(res);
    if (!ok || PQstatus(l->pg) != CONNECTION_OK) {
        log_kv(LOG_WARN, "database connection lost", "op", "listen ping", NULL);
        metrics_db_error(1);
        return -1;
    }
    return 0;
}

void store_listener_free(struct store_listener *l)
{
    if (!l) return;
    PQfinish(l->pg);
    free(l);
}
