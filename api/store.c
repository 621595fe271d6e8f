/* store.c: the only file that speaks libpq. One connection per thread, prepared statements. */
#include "store.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libpq-fe.h>

#include "log.h"
#include "req.h"

#define MIGRATION_LOCK_KEY "7596138466117266540" /* pg_advisory_lock key of migrations */
#define RECONNECT_DELAY_MS 1000                  /* between attempts of one thread */
#define MAX_PARAMS         16                    /* parameters of one statement */

/* The statements every connection prepares. */
enum stmt {
    ST_PING,
    ST_GAME_LOAD,
    ST_PLAYERS_LOAD,
    ST_GAME_INSERT,
    ST_PLAYER_INSERT,
    ST_EVENTS_INSERT,
    ST_GAME_UPDATE,
    ST_ACTION_INSERT,
    ST_EVENTS_LIST,
    ST_GAME_SEQ,
    ST_IDEM_GET,
    ST_IDEM_PUT,
    ST_COUNT
};

static const char *const stmt_sql[ST_COUNT] = {
    [ST_PING] = "SELECT 1",
    [ST_GAME_LOAD] = "SELECT version, last_seq, snapshot FROM games WHERE id = $1::uuid",
    [ST_PLAYERS_LOAD] = "SELECT seat, name, token_hash FROM players WHERE game_id = $1::uuid "
                        "ORDER BY seat",
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
    [ST_EVENTS_LIST] = "SELECT payload FROM events WHERE game_id = $1::uuid AND seq > "
                       "$2::integer ORDER BY seq LIMIT $3::integer",
    [ST_GAME_SEQ] = "SELECT last_seq FROM games WHERE id = $1::uuid",
    [ST_IDEM_GET] = "SELECT request_hash, status, location, etag, body FROM idempotency "
                    "WHERE scope = $1 AND key = $2 AND created_at > now() - interval '24 hours'",
    [ST_IDEM_PUT] =
        "INSERT INTO idempotency (scope, key, request_hash, status, location, etag, body) "
        "VALUES ($1, $2, $3::bytea, $4::integer, $5, $6, $7) ON CONFLICT (scope, key) "
        "DO UPDATE SET request_hash = EXCLUDED.request_hash, status = EXCLUDED.status, "
        "location = EXCLUDED.location, etag = EXCLUDED.etag, body = EXCLUDED.body, "
        "created_at = now() "
        "WHERE idempotency.created_at <= now() - interval '24 hours'",
};

/* A thread's connection. */
struct conn {
    PGconn *pg;            /* NULL while disconnected */
    long long next_try_ms; /* no reconnect attempt before this */
};

static char *conninfo;         /* from store_init */
static pthread_key_t conn_key; /* the thread's struct conn */
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
    return STORE_ERROR;
}

/*
 * Runs prepared statement `st` with `n` parameters (text, except those with a nonzero
 * length in `lens`, which are binary) on *pgp. On success *out holds the result (caller
 * PQclears) and STORE_OK is returned; else the mapped failure (nothing to clear). A
 * connection found dead outside a transaction is replaced and the statement run once
 * more (*pgp then names the new connection), so a database restart costs no request.
 */
static enum store_status run(PGconn **pgp, enum stmt st, int n, const char *const *vals,
                             const int *lens, PGresult **out)
{
    char name[16];
    snprintf(name, sizeof name, "s%d", (int)st);
    int formats[MAX_PARAMS] = {0};
    if (n > MAX_PARAMS) return STORE_ERROR;
    for (int i = 0; lens && i < n; i++) formats[i] = lens[i] ? 1 : 0;
    for (int attempt = 0;; attempt++) {
        PGconn *pg = *pgp;
        int idle = PQtransactionStatus(pg) == PQTRANS_IDLE;
        PGresult *res = PQexecPrepared(pg, name, n, vals, lens, formats, 0);
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
    if (s == STORE_OK) s = exec_sql(pg, "COMMIT", "commit");
    if (s != STORE_OK) rollback(pg);
    return s;
}

enum store_status store_game_load(const char *id, struct store_game *out)
{
    PGconn *pg = conn_get();
    if (!pg) return STORE_UNAVAILABLE;
    const char *vals[1] = {id};
    PGresult *res;
    enum store_status s = run(&pg, ST_GAME_LOAD, 1, vals, NULL, &res);
    if (s != STORE_OK) return s;
    if (PQntuples(res) != 1) {
        PQclear(res);
        return STORE_NOT_FOUND;
    }
    out->version = (int)strtol(PQgetvalue(res, 0, 0), NULL, 10);
    out->last_seq = (int)strtol(PQgetvalue(res, 0, 1), NULL, 10);
    size_t len = 0;
    unsigned char *snap = PQunescapeBytea((const unsigned char *)PQgetvalue(res, 0, 2), &len);
    PQclear(res);
    if (!snap || len > sizeof out->snapshot) {
        PQfreemem(snap);
        log_kv(LOG_ERROR, "stored snapshot too large or unreadable", "game", id, NULL);
        return STORE_ERROR;
    }
    memcpy(out->snapshot, snap, len);
    out->snapshot_len = len;
    PQfreemem(snap);

    s = run(&pg, ST_PLAYERS_LOAD, 1, vals, NULL, &res);
    if (s != STORE_OK) return s;
    int n = PQntuples(res);
    out->nplayers = 0;
    for (int i = 0; i < n && i < CC_MAX_PLAYERS; i++) {
        struct store_player *p = &out->players[i];
        snprintf(p->name, sizeof p->name, "%s", PQgetvalue(res, i, 1));
        unsigned char *h = PQunescapeBytea((const unsigned char *)PQgetvalue(res, i, 2), &len);
        if (!h || len != AUTH_HASH_LEN) {
            PQfreemem(h);
            PQclear(res);
            return STORE_ERROR;
        }
        memcpy(p->token_hash, h, AUTH_HASH_LEN);
        PQfreemem(h);
        out->nplayers++;
    }
    PQclear(res);
    return STORE_OK;
}

enum store_status store_game_commit(const struct store_commit *c)
{
    PGconn *pg = conn_get();
    if (!pg) return STORE_UNAVAILABLE;
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
    if (s == STORE_OK && c->idem) s = idem_put(pg, c->idem);
    if (s == STORE_OK) s = exec_sql(pg, "COMMIT", "commit");
    if (s != STORE_OK) rollback(pg);
    /* A version that moved on shows as a duplicate action or event key too. */
    if (s == STORE_DUPLICATE && !c->idem) s = STORE_CONFLICT;
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
    enum store_status s = run(&pg, ST_GAME_SEQ, 1, vals, NULL, &res);
    if (s != STORE_OK) return s;
    int found = PQntuples(res) == 1;
    PQclear(res);
    if (!found) return STORE_NOT_FOUND;
    s = run(&pg, ST_EVENTS_LIST, 3, vals, NULL, &res);
    if (s != STORE_OK) return s;
    int n = PQntuples(res);
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
