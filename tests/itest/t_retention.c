/* t_retention.c: the retention sweep (issue 16, item 3; api/jobs/retention.c) on a database of its
 * own, so that no other test's games or servers take part and the counts are exact: two
 * servers with RETENTION_DAYS=1, LOBBY_EXPIRY_HOURS=1 and small batches; games that ended
 * (finished by a resignation after a few turns, with a webhook whose deliveries wait, and
 * idempotent answers; one aborted) set back two days in SQL are deleted with every row of
 * theirs, recent finished games, old active games and recent lobbies are kept, an old lobby
 * is aborted with a game_expired event (and deleted once it too is old), and the two
 * servers' counters in /metrics add up to exactly what went. Then the same database made
 * anew for a server killed in the middle of a batch (run_killed). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libpq-fe.h>

#include "db.h"
#include "hard.h"
#include "tests.h"

#define OLD_GAMES  24 /* finished games set back (and one aborted) */
#define BATCH      "RETENTION_BATCH=5"
#define RET_DB     "tilehall_itest_retention"
#define WAIT_LIMIT 30000 /* ms the sweep may take for everything */

/* DATABASE_URL (a URI, as scripts/pg-start.sh prints it) with its database `db` into
 * `out`. 0, or -1 when it is not a URI with a path. */
static int url_with_db(const char *url, const char *db, char *out, size_t cap)
{
    const char *q = strchr(url, '?');
    size_t end = q ? (size_t)(q - url) : strlen(url);
    size_t slash = end;
    while (slash > 0 && url[slash - 1] != '/') slash--;
    if (!slash || strncmp(url, "postgres", 8) != 0) return -1;
    int w = snprintf(out, cap, "%.*s%s%s", (int)slash, url, db, q ? q : "");
    return w < 0 || (size_t)w >= cap ? -1 : 0;
}

/* The value of the metric line `name` (with its labels, if any) on `srv`, or -1. */
static double metric(const struct server *srv, const char *name)
{
    struct resp r;
    http(srv, "GET", "/metrics", NULL, NULL, &r);
    double v = -1;
    size_t n = strlen(name);
    for (const char *p = r.status == 200 && r.body ? r.body : ""; *p;) {
        if (strncmp(p, name, n) == 0 && p[n] == ' ') {
            v = strtod(p + n + 1, NULL);
            break;
        }
        const char *nl = strchr(p, '\n');
        if (!nl) break;
        p = nl + 1;
    }
    resp_free(&r);
    return v;
}

/* POST /v1/games/{id}/<what> with header lines `h` (NULL-terminated). */
static long post_game(const struct server *srv, const char *id, const char *what,
                      const char *const *h)
{
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s/%s", id, what);
    struct resp r;
    http(srv, "POST", path, NULL, h, &r);
    long st = r.status;
    resp_free(&r);
    return st;
}

/* Rows of game `id` in the tables the sweep deletes from (players, actions, events,
 * webhooks, their deliveries, jobs, idempotent answers in the game's scopes). */
static long rows_of(const char *id)
{
    return db_scalar_id(
        "SELECT (SELECT count(*) FROM games WHERE id = $1::uuid) + (SELECT count(*) FROM players "
        "WHERE game_id = $1::uuid) + (SELECT count(*) FROM actions WHERE game_id = $1::uuid) + "
        "(SELECT count(*) FROM events WHERE game_id = $1::uuid) + (SELECT count(*) FROM webhooks "
        "WHERE game_id = $1::uuid) + (SELECT count(*) FROM webhook_deliveries d JOIN webhooks w "
        "ON w.id = d.webhook_id WHERE w.game_id = $1::uuid) + (SELECT count(*) FROM jobs WHERE "
        "game_id = $1::uuid) + (SELECT count(*) FROM idempotency WHERE scope LIKE $1 || '/%')",
        id);
}

#define TWO_PERSONS "{\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"}]}"

/* A game made on `srv` from `body`, `turns` turns played: 0, or -1 with `why`. */
static int game_played(const struct server *srv, const char *body, int turns, struct game *g,
                       char *why, size_t cap)
{
    if (game_new(srv, body, g, why, cap)) return -1;
    for (int t = 0; t < turns; t++)
        if (play_turn(srv, g, 1, why, cap)) return -1;
    return 0;
}

/* Seat 0 of game `g` resigns on `srv`: the answer's status. */
static long resign(const struct server *srv, const struct game *g)
{
    const char *h[2] = {g->auth[0], NULL};
    return post_game(srv, g->id, "resign", h);
}

/* The ids of games `g` (n of them) and of `last` (if not NULL) as a PostgreSQL array
 * literal of uuids, into `out` (36 characters and a comma an id). */
static void ids_array(const struct game *g, int n, const struct game *last, char *out, size_t cap)
{
    size_t o = (size_t)snprintf(out, cap, "{");
    for (int i = 0; i < n; i++)
        o += (size_t)snprintf(out + o, cap - o, "%s%s", i ? "," : "", g[i].id);
    if (last) o += (size_t)snprintf(out + o, cap - o, "%s%s", n ? "," : "", last->id);
    snprintf(out + o, cap - o, "}");
}

/* How many of the games whose ids `ids` holds (ids_array) are still stored. */
static long games_left(const char *ids)
{
    return db_scalar_id("SELECT count(*) FROM games WHERE id = ANY($1::uuid[])", ids);
}

/* Sleeps `ms` milliseconds. */
static void nap(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* The body of the test, with DATABASE_URL naming the test's own database. */
static void run(struct server *a, struct server *b)
{
    static const char *const env[] = {
        "RETENTION_DAYS=1", "LOBBY_EXPIRY_HOURS=1", "RETENTION_INTERVAL=1",      BATCH,
        "JOBS_POLL_MS=50",  "WEBHOOK_WORKERS=0",    "CREATE_LIMIT_PER_MINUTE=0", NULL};
    CHECK(hard_server_start(a, env, 0) == 0, "server A did not start");
    CHECK(hard_server_start(b, env, 0) == 0, "server B did not start");
    struct game old[OLD_GAMES], recent, active, lobby_old, lobby_new, aborted;
    char why[400];
    /* Finished games: two turns, a draw with an Idempotency-Key, then seat 0 resigns. */
    for (int i = 0; i < OLD_GAMES + 1; i++) {
        struct game *g = i < OLD_GAMES ? &old[i] : &recent;
        CHECK(game_played(i % 2 ? b : a,
                          "{\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"}],\"webhook\":"
                          "{\"url\":\"https://example.com/hook\"}}",
                          2, g, why, sizeof why) == 0,
              "%s", why);
        char key[80];
        snprintf(key, sizeof key, "Idempotency-Key: retention-%d-0123456789abcdef0123456789", i);
        const char *h[3] = {g->auth[0], key, NULL};
        CHECK(post_game(a, g->id, "draw", h) == 200, "the keyed draw of game %d failed", i);
        CHECK(resign(b, g) == 200, "the resignation of game %d failed", i);
    }
    CHECK(game_played(a, TWO_PERSONS, 1, &active, why, sizeof why) == 0, "%s", why);
    CHECK(game_new(a, "{\"players\":[{\"name\":\"Ann\"},{\"open\":true}]}", &lobby_old, why,
                   sizeof why) == 0,
          "%s", why);
    CHECK(game_new(a, "{\"players\":[{\"name\":\"Ann\"},{\"open\":true}]}", &lobby_new, why,
                   sizeof why) == 0,
          "%s", why);
    CHECK(game_new(a, "{\"players\":[{\"name\":\"Ann\"},{\"open\":true}]}", &aborted, why,
                   sizeof why) == 0,
          "%s", why);
    const char *ha[2] = {aborted.auth[0], NULL};
    CHECK(post_game(a, aborted.id, "abort", ha) == 200, "the abort failed");
    CHECK(db_scalar("SELECT count(*) FROM webhook_deliveries") > 0, "no delivery waits");
    long before[OLD_GAMES];
    for (int i = 0; i < OLD_GAMES; i++) {
        before[i] = rows_of(old[i].id);
        /* The row, 2 seats, 6 actions or so, events, a webhook with its deliveries, a key. */
        CHECK(before[i] > 20, "game %d has only %ld rows", i, before[i]);
    }
    long recent_rows = rows_of(recent.id), active_rows = rows_of(active.id);

    /* Two days back: the old games' ends (and their keys' answers), the active game's every
     * time, the old lobby's creation by two hours. */
    char ids[(OLD_GAMES + 1) * 40 + 8];
    ids_array(old, OLD_GAMES, &aborted, ids, sizeof ids);
    CHECK(db_scalar_id("WITH u AS (UPDATE games SET ended_at = now() - interval '2 days', "
                       "updated_at = now() - interval '2 days' WHERE id = ANY($1::uuid[]) "
                       "AND ended_at IS NOT NULL RETURNING 1) SELECT count(*) FROM u",
                       ids) == OLD_GAMES + 1,
          "not every old game had ended");
    db_scalar_id("WITH u AS (UPDATE idempotency SET created_at = now() - interval '2 days' "
                 "WHERE split_part(scope, '/', 1) = ANY($1::text[]) RETURNING 1) "
                 "SELECT count(*) FROM u",
                 ids);
    const char *va[2] = {active.id, lobby_old.id};
    db_scalar_params("WITH u AS (UPDATE games SET updated_at = now() - interval '10 days', "
                     "created_at = now() - interval '10 days' WHERE id = $1::uuid RETURNING 1), "
                     "l AS (UPDATE games SET created_at = now() - interval '2 hours' WHERE id = "
                     "$2::uuid RETURNING 1) SELECT (SELECT count(*) FROM u) + (SELECT count(*) "
                     "FROM l)",
                     2, va);
    db_scalar("WITH u AS (UPDATE jobs SET due_at = now() WHERE kind = 'retention' RETURNING 1) "
              "SELECT count(*) FROM u");

    /* Wait for the sweep: every old game gone, the old lobby aborted. */
    long waited = 0;
    for (;; waited += 100) {
        long left = games_left(ids);
        long aborted_lobby = db_scalar_id(
            "SELECT count(*) FROM games WHERE id = $1::uuid AND status = 'aborted'", lobby_old.id);
        if (left == 0 && aborted_lobby == 1) break;
        CHECK(waited < WAIT_LIMIT, "after %ld ms: %ld old games left, old lobby aborted: %ld",
              waited, left, aborted_lobby);
        nap(100);
    }
    for (int i = 0; i < OLD_GAMES; i++)
        CHECK(rows_of(old[i].id) == 0, "game %d keeps %ld rows", i, rows_of(old[i].id));
    CHECK(rows_of(aborted.id) == 0, "the aborted game keeps rows");
    CHECK(rows_of(recent.id) == recent_rows, "the recent finished game lost rows");
    CHECK(rows_of(active.id) == active_rows, "the old active game lost rows");
    struct resp r;
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s", old[0].id);
    http(a, "GET", path, NULL, NULL, &r);
    long st = r.status;
    resp_free(&r);
    CHECK(st == 404, "a deleted game answered %ld", st);

    /* The old lobby: aborted, its last event game_expired; the recent one still waits. */
    cJSON *ev = game_events(b, lobby_old.id);
    CHECK(ev, "no events of the expired lobby");
    const cJSON *last = cJSON_GetArrayItem(ev, cJSON_GetArraySize(ev) - 1);
    int expired = strcmp(jstr(last, "type"), "game_expired") == 0 && jnum(last, "hours") == 1;
    cJSON_Delete(ev);
    CHECK(expired, "the expired lobby's last event is not game_expired with hours 1");
    cJSON *lj = game_get(a, &lobby_new);
    CHECK(lj, "the recent lobby cannot be read");
    int waiting = strcmp(jstr(lj, "status"), "waiting") == 0;
    cJSON_Delete(lj);
    CHECK(waiting, "the recent lobby does not wait any more");
    cJSON *oj = game_get(a, &lobby_old);
    CHECK(oj, "the expired lobby cannot be read");
    int is_aborted = strcmp(jstr(oj, "status"), "aborted") == 0;
    cJSON_Delete(oj);
    CHECK(is_aborted, "the expired lobby is not aborted");

    /* The counters of both servers add up to exactly what went (OLD_GAMES + the aborted
     * game, in batches of 5: the one that got each batch counted it, nobody twice). */
    double ga = metric(a, "tilehall_retention_games_deleted_total");
    double gb = metric(b, "tilehall_retention_games_deleted_total");
    double la = metric(a, "tilehall_retention_lobbies_expired_total");
    double lb = metric(b, "tilehall_retention_lobbies_expired_total");
    double ba = metric(a, "tilehall_retention_batches_total");
    double bb = metric(b, "tilehall_retention_batches_total");
    double ia = metric(a, "tilehall_retention_idempotency_purged_total");
    double ib = metric(b, "tilehall_retention_idempotency_purged_total");
    CHECK(ga >= 0 && gb >= 0 && ga + gb == OLD_GAMES + 1, "games deleted: %g on A + %g on B", ga,
          gb);
    CHECK(la + lb == 1, "lobbies expired: %g on A + %g on B", la, lb);
    CHECK(ia + ib >= OLD_GAMES, "idempotent answers purged: %g + %g", ia, ib);
    CHECK(ba + bb >= (OLD_GAMES + 1 + 4) / 5, "batches: %g + %g", ba, bb);
    CHECK(metric(a, "tilehall_retention_last_run_seconds") >= 0, "no last run duration");
    printf("  retention: %d games deleted in %ld ms (A %g, B %g; batches A %g, B %g), 1 lobby "
           "expired\n",
           OLD_GAMES + 1, waited, ga, gb, ba, bb);

    /* The expired lobby ended now: two days later it goes too. */
    db_scalar_id("WITH u AS (UPDATE games SET ended_at = now() - interval '2 days' WHERE id = "
                 "$1::uuid RETURNING 1) SELECT count(*) FROM u",
                 lobby_old.id);
    for (waited = 0; rows_of(lobby_old.id) != 0; waited += 100) {
        CHECK(waited < WAIT_LIMIT, "the expired lobby was not deleted once old");
        nap(100);
    }
    CHECK(rows_of(recent.id) == recent_rows, "the recent finished game lost rows");
    CHECK(rows_of(lobby_new.id) > 0, "the recent lobby was deleted");
}

/*
 * A server killed (SIGKILL) while a batch of the sweep is in flight in the database: the
 * batch's DELETE is held on a row lock the test takes on one game's events (its third
 * batch, games ordered by their end), then the server is killed and the lock let go.
 * Checked: every old game has all its rows or none (the batch committed whole or not at
 * all, whatever the dead server's backend did); the sweep's job row stays, leased to the
 * dead server, and a second server leaves it alone while the lease holds; once the lease
 * has run out (set back in SQL: RETENTION_LEASE_MS is 60 s) the second server takes the
 * sweep up and deletes exactly the rest, the recent and the active game kept whole.
 */
#define KILL_GAMES   20 /* old games: four batches of 5 */
#define KILL_BLOCKED 12 /* the game whose events the test locks: the third batch */

static void run_killed(struct server *a, struct server *b)
{
    static const char *const env[] = {
        "RETENTION_DAYS=1",  "RETENTION_INTERVAL=1",      BATCH, "JOBS_POLL_MS=50",
        "WEBHOOK_WORKERS=0", "CREATE_LIMIT_PER_MINUTE=0", NULL};
    CHECK(hard_server_start(a, env, 0) == 0, "server A did not start");
    struct game old[KILL_GAMES], recent, active;
    char why[400];
    for (int i = 0; i < KILL_GAMES + 1; i++) {
        struct game *g = i < KILL_GAMES ? &old[i] : &recent;
        CHECK(game_played(a, TWO_PERSONS, 1, g, why, sizeof why) == 0, "%s", why);
        CHECK(resign(a, g) == 200, "the resignation of game %d failed", i);
    }
    CHECK(game_played(a, TWO_PERSONS, 1, &active, why, sizeof why) == 0, "%s", why);
    long before[KILL_GAMES];
    for (int i = 0; i < KILL_GAMES; i++) before[i] = rows_of(old[i].id);
    long recent_rows = rows_of(recent.id), active_rows = rows_of(active.id);

    /* The lock that will hold the third batch, a transaction of the test's own: taken before
     * the games are old, so that no sweep can take that game first. */
    PGconn *lock = PQconnectdb(getenv("DATABASE_URL"));
    PGresult *res = PQexec(lock, "BEGIN");
    PQclear(res);
    const char *vb[1] = {old[KILL_BLOCKED].id};
    res = PQexecParams(lock, "SELECT 1 FROM events WHERE game_id = $1::uuid FOR UPDATE", 1, NULL,
                       vb, NULL, NULL, 0);
    int locked = PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) > 0;
    snprintf(why, sizeof why, "%s", PQerrorMessage(lock));
    PQclear(res);
    if (!locked) PQfinish(lock);
    CHECK(locked, "the events of game %d could not be locked: %s", KILL_BLOCKED, why);

    /* Two days back, game i a minute later than game i - 1: the sweep takes them in order. */
    char ids[KILL_GAMES * 40 + 8];
    ids_array(old, KILL_GAMES, NULL, ids, sizeof ids);
    long set_back = db_scalar_id(
        "WITH u AS (UPDATE games g SET ended_at = now() - interval '2 days' + "
        "(array_position($1::uuid[], g.id) * interval '1 minute') WHERE g.id = ANY($1::uuid[]) "
        "RETURNING 1) SELECT count(*) FROM u",
        ids);
    if (set_back != KILL_GAMES) PQfinish(lock);
    CHECK(set_back == KILL_GAMES, "%ld of %d old games set back", set_back, KILL_GAMES);
    db_scalar("WITH u AS (UPDATE jobs SET due_at = now() WHERE kind = 'retention' RETURNING 1) "
              "SELECT count(*) FROM u");

    /* Two batches gone, the third waiting for the lock in A's backend. */
    const char *in_flight = "SELECT count(*) FROM pg_stat_activity WHERE datname = "
                            "current_database() AND wait_event_type = 'Lock' AND query LIKE "
                            "'WITH old AS%'";
    long left = -1, waiting = 0, waited = 0;
    for (;; waited += 20) {
        left = games_left(ids);
        waiting = db_scalar(in_flight);
        if ((left == KILL_GAMES - 10 && waiting == 1) || waited >= WAIT_LIMIT) break;
        nap(20);
    }
    long leased = db_scalar("SELECT count(*) FROM jobs WHERE kind = 'retention' AND "
                            "claimed_until > now() + interval '30 seconds'");
    hard_server_kill(a);
    res = PQexec(lock, "ROLLBACK");
    PQclear(res);
    PQfinish(lock);
    CHECK(left == KILL_GAMES - 10 && waiting == 1,
          "after %ld ms: %ld old games left, %ld batches waiting for the lock", waited, left,
          waiting);
    CHECK(leased == 1, "the sweep's job was not leased while its batch was in flight");

    /* The dead server's backends end (the batch's, once it has run or rolled back). */
    for (waited = 0; db_scalar("SELECT count(*) FROM pg_stat_activity WHERE datname = "
                               "current_database() AND backend_type = 'client backend' AND "
                               "pid <> pg_backend_pid()") > 0;
         waited += 20) {
        CHECK(waited < WAIT_LIMIT, "the killed server's backends did not end");
        nap(20);
    }
    /* Each game whole or gone: ten, or fifteen if the batch committed before its backend
     * saw its client gone. */
    int gone = 0;
    for (int i = 0; i < KILL_GAMES; i++) {
        long n = rows_of(old[i].id);
        CHECK(n == 0 || n == before[i], "game %d: %ld of its %ld rows left", i, n, before[i]);
        gone += n == 0;
    }
    CHECK(gone == 10 || gone == 15, "%d old games gone after the kill", gone);
    CHECK(db_scalar("SELECT count(*) FROM jobs WHERE kind = 'retention' AND claimed_until > "
                    "now()") == 1,
          "the sweep's job is not one row leased to the dead server");

    /* B leaves the sweep alone while the dead server's lease holds... */
    CHECK(hard_server_start(b, env, 0) == 0, "server B did not start");
    nap(1000);
    long kept = games_left(ids);
    CHECK(kept == KILL_GAMES - gone, "server B swept during the dead server's lease (%ld left)",
          kept);
    /* ...and takes it up once the lease has run out. */
    db_scalar("WITH u AS (UPDATE jobs SET due_at = now(), claimed_until = now() WHERE kind = "
              "'retention' RETURNING 1) SELECT count(*) FROM u");
    for (waited = 0; games_left(ids) > 0; waited += 100) {
        CHECK(waited < WAIT_LIMIT, "the sweep was not taken up after the lease ran out");
        nap(100);
    }
    for (int i = 0; i < KILL_GAMES; i++)
        CHECK(rows_of(old[i].id) == 0, "game %d keeps %ld rows", i, rows_of(old[i].id));
    CHECK(rows_of(recent.id) == recent_rows, "the recent finished game lost rows");
    CHECK(rows_of(active.id) == active_rows, "the active game lost rows");
    double gb = metric(b, "tilehall_retention_games_deleted_total");
    CHECK(gb == KILL_GAMES - gone, "server B deleted %g games, %d were left", gb,
          KILL_GAMES - gone);
    CHECK(db_scalar("SELECT count(*) FROM jobs WHERE kind = 'retention'") == 1,
          "the sweep's job is not one row");
    printf("  retention killed: SIGKILL with the third batch held in the database; %d of %d "
           "games gone then (each whole or not at all), the rest deleted by server B in %ld ms "
           "once the lease ran out\n",
           gone, KILL_GAMES, waited);
}

/* Drops the database `name` (a constant of this file) if it is there, then creates it
 * unless `create` is 0. */
static void own_db_reset(const char *name, int create)
{
    char sql[128];
    snprintf(sql, sizeof sql, "DROP DATABASE IF EXISTS %s", name);
    db_scalar(sql);
    if (!create) return;
    snprintf(sql, sizeof sql, "CREATE DATABASE %s", name);
    db_scalar(sql);
}

/* Runs `body` with DATABASE_URL naming `name`, a database of the test's own, made for it
 * (each test its own: the runner's workers may run the two tests at once). */
static void with_own_db(const char *name, void (*body)(struct server *, struct server *))
{
    const char *url = getenv("DATABASE_URL");
    char saved[1024], mine[1024];
    CHECK(url && strlen(url) < sizeof saved, "DATABASE_URL is not set");
    snprintf(saved, sizeof saved, "%s", url);
    CHECK(url_with_db(saved, name, mine, sizeof mine) == 0, "DATABASE_URL is not a URI: %s", saved);
    own_db_reset(name, 1);
    setenv("DATABASE_URL", mine, 1);
    struct server a = {0}, b = {0};
    body(&a, &b);
    if (a.pid) (void)hard_server_stop(&a);
    if (b.pid) (void)hard_server_stop(&b);
    setenv("DATABASE_URL", saved, 1);
    own_db_reset(name, 0);
}

ITEST(
    test_retention,
    "retention: old ended games deleted with every row, lobbies expired, two servers' counts exact")
{
    (void)srv;
    with_own_db(RET_DB, run);
}

ITEST(test_retention_killed, "retention: a server killed with a batch in flight; each game whole "
                             "or gone, the sweep taken up once its lease ran out")
{
    (void)srv;
    with_own_db(RET_DB "_killed", run_killed);
}
