/* t_batch.c: requests' moves committed in batches (the group commit, api/store/batcher.c). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libpq-fe.h>

#include "db.h"
#include "hard.h"
#include "tests.h"

#define BATCH_GAME "{\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"}],\"seed\":5}"

/* A draw sent on a thread of its own (draw_start, draw_join). */
struct draw {
    const struct server *srv;
    const struct game *g;
    struct resp r;
    pthread_t t;
};

static void *draw_main(void *arg)
{
    struct draw *d = arg;
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s/draw", d->g->id);
    const char *h[] = {d->g->auth[0], NULL}; /* seat 0 moves first */
    http(d->srv, "POST", path, NULL, h, &d->r);
    return NULL;
}

static int draw_start(struct draw *d, const struct server *srv, const struct game *g)
{
    memset(d, 0, sizeof *d);
    d->srv = srv;
    d->g = g;
    return pthread_create(&d->t, NULL, draw_main, d);
}

/* The version of game `id` as stored, or -1. */
static long stored_version(const char *id)
{
    return db_scalar_id("SELECT version FROM games WHERE id = $1::uuid", id);
}

/* Waits up to 10 s for `fn(arg)` to be true: 1 when it was. */
static int wait_for(int (*fn)(const void *arg), const void *arg)
{
    long long until = hard_now_ms() + 10000;
    while (!fn(arg) && hard_now_ms() < until) usleep(5000);
    return fn(arg);
}

/* A backend of this test's database waits for a row lock (the batch of L's draw). */
static int batch_blocked(const void *arg)
{
    (void)arg;
    return db_scalar("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                     "AND wait_event_type = 'Lock'") >= 1;
}

/* Two moves queue on the server behind the blocked batch. */
static int two_queued(const void *arg)
{
    return hard_metric(arg, "tilehall_commits_queued") == 2;
}

/*
 * Game L's draw is committed in a batch that a row lock of the test's holds; meanwhile the
 * draws of games A and B queue and then go in one batch together. A's next action is
 * stored already (a row the test wrote), so A's commit breaks the log's key: the batch's
 * statement fails, and each of its moves is committed alone: B's goes through, A's is
 * refused as a version that moved on. Nothing of A's is written, and every log stays sound.
 */
ITEST(test_batch_one_fails, "group commit: a move that fails alone takes none of its batch down")
{
    HARD_SERVER(one, 0, "COMMIT_THREADS=1");
    char why[400] = "";
    struct game l, a, b;
    int made = game_new(&one, BATCH_GAME, &l, why, sizeof why) == 0 &&
               game_new(&one, BATCH_GAME, &a, why, sizeof why) == 0 &&
               game_new(&one, BATCH_GAME, &b, why, sizeof why) == 0;
    if (!made) hard_server_stop(&one);
    CHECK(made, "%s", why);
    long v_l = stored_version(l.id), v_a = stored_version(a.id), v_b = stored_version(b.id);
    long planted = db_scalar_id("WITH p AS (INSERT INTO actions (game_id, version, seat, kind, "
                                "body) SELECT id, version + 1, 0, 'draw', '{}' FROM games WHERE "
                                "id = $1::uuid RETURNING 1) SELECT count(*) FROM p",
                                a.id);
    long batches0 = hard_metric(&one, "tilehall_commit_batches_total");
    long batched0 = hard_metric(&one, "tilehall_commits_batched_total");

    PGconn *lock = PQconnectdb(getenv("DATABASE_URL"));
    PGresult *res = PQexec(lock, "BEGIN");
    PQclear(res);
    const char *vl[1] = {l.id};
    res = PQexecParams(lock, "SELECT 1 FROM games WHERE id = $1::uuid FOR UPDATE", 1, NULL, vl,
                       NULL, NULL, 0);
    int locked = PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1;
    PQclear(res);

    struct draw dl, da, db;
    int started = locked && draw_start(&dl, &one, &l) == 0;
    int blocked = started && wait_for(batch_blocked, NULL);
    int sent = blocked && draw_start(&da, &one, &a) == 0;
    sent = sent && draw_start(&db, &one, &b) == 0;
    int queued = sent && wait_for(two_queued, &one);
    res = PQexec(lock, "COMMIT");
    PQclear(res);
    PQfinish(lock);
    if (started) pthread_join(dl.t, NULL);
    if (sent) {
        pthread_join(da.t, NULL);
        pthread_join(db.t, NULL);
    }
    long batches = hard_metric(&one, "tilehall_commit_batches_total") - batches0;
    long batched = hard_metric(&one, "tilehall_commits_batched_total") - batched0;
    long now_l = stored_version(l.id), now_a = stored_version(a.id), now_b = stored_version(b.id);
    char sound[300] = "";
    int sound_b = db_log_sound(b.id, sound, sizeof sound) == 0;
    int code = hard_server_stop(&one);

    CHECK(planted == 1, "the action of game A's next version could not be written");
    CHECK(locked, "game L's row could not be locked");
    CHECK(blocked, "the batch of game L's draw did not wait for the lock");
    CHECK(queued, "the draws of games A and B did not queue behind it");
    CHECK(dl.r.status == 200, "game L's draw: %ld %.200s", dl.r.status, dl.r.body);
    CHECK(db.r.status == 200, "game B's draw, in the failed batch: %ld %.200s", db.r.status,
          db.r.body);
    CHECK((da.r.status == 409 || da.r.status == 412) && problem_code(&da.r)[0],
          "game A's draw, whose commit breaks a key: %ld %.200s", da.r.status, da.r.body);
    CHECK(batches == 2 && batched == 3,
          "batches: %ld statements for %ld moves (want 2 for 3: L's, then A's and B's)", batches,
          batched);
    CHECK(now_l == v_l + 1 && now_b == v_b + 1 && now_a == v_a,
          "versions: L %ld -> %ld, B %ld -> %ld, A %ld -> %ld", v_l, now_l, v_b, now_b, v_a, now_a);
    CHECK(sound_b, "%s", sound);
    CHECK(code == 0, "server exit status %d", code);
    resp_free(&dl.r);
    resp_free(&da.r);
    resp_free(&db.r);
}
