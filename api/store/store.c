/* store.c: games, their actions and events, idempotent answers: what the service stores
 * of a game, through the statements of store_db.c. */
#include "store.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libpq-fe.h>

#include "log.h"
#include "store_db.h"
#include "store_games.h"
#include "store_jobs.h"
#include "store_pipe.h"
#include "store_ratings.h"

static void (*delivery_hook)(void); /* called after a commit that wrote deliveries */
static void (*job_hook)(void);      /* called after a commit that wrote a job */

void store_jobs_add(struct store_jobs *jobs, struct store_job_plan p)
{
    if (jobs->n >= STORE_JOBS_MAX) {
        log_kv(LOG_ERROR, "job plan too long", "kind", p.kind, NULL);
        return;
    }
    jobs->job[jobs->n++] = p;
}

const char *store_jobs_json(const struct store_jobs *jobs, char *buf, size_t cap)
{
    size_t o = 0;
    if (!jobs || jobs->n <= 0) return NULL;
    for (int i = 0; i < jobs->n; i++) {
        const struct store_job_plan *p = &jobs->job[i];
        int w = p->remove
                    ? snprintf(buf + o, cap - o, "%s{\"kind\":\"%s\",\"due_ms\":null}",
                               i ? "," : "[", p->kind)
                    : snprintf(buf + o, cap - o,
                               "%s{\"kind\":\"%s\",\"due_ms\":%lld,\"lease_ms\":%d}", i ? "," : "[",
                               p->kind, p->due_ms, p->lease_ms > 0 ? p->lease_ms : 10000);
        if (w < 0 || (size_t)w >= cap - o) {
            log_kv(LOG_ERROR, "job plan too long", "kind", p->kind, NULL);
            return NULL;
        }
        o += (size_t)w;
    }
    if (o + 2 > cap) return NULL;
    buf[o++] = ']';
    buf[o] = '\0';
    return buf;
}

/* ST_JOBS_SET: the jobs `jobs` (as STORE_JOBS_JSON) of game `id` for `version`, in the
 * current transaction; *written gets the number of jobs written. */
static enum store_status jobs_set(PGconn **pgp, const char *id, int version,
                                  const struct store_jobs *jobs, long *written)
{
    char json_buf[STORE_JOBS_JSON_MAX];
    const char *json = store_jobs_json(jobs, json_buf, sizeof json_buf);
    *written = 0;
    if (!json) return STORE_OK;
    char v[16];
    snprintf(v, sizeof v, "%d", version);
    const char *vals[3] = {id, v, json};
    PGresult *res;
    enum store_status s = db_run(pgp, ST_JOBS_SET, 3, vals, NULL, &res);
    if (s != STORE_OK) return s;
    *written = PQntuples(res) == 1 ? db_long(res, 0, 0, 0) : 0;
    PQclear(res);
    return STORE_OK;
}

void store_set_job_hook(void (*fn)(void))
{
    job_hook = fn;
}

/* After a commit: wakes the webhook deliveries and the job workers when it gave them work. */
void store_wake(long deliveries, long jobs)
{
    if (deliveries > 0 && delivery_hook) delivery_hook();
    if (jobs > 0 && job_hook) job_hook();
}

/* Ends the transaction on `pg` that has come to `s`: commits it if all went well (then
 * wakes whoever the commit gave work: store_wake()), else rolls it back. The outcome. */
static enum store_status commit_and_wake(PGconn *pg, enum store_status s, long deliveries,
                                         long jobs)
{
    if (s == STORE_OK) s = db_exec(pg, "COMMIT", "commit");
    if (s != STORE_OK) db_rollback(pg);
    if (s == STORE_OK) store_wake(deliveries, jobs);
    return s;
}

/* ST_AFTER_COMMIT with vals {id, last seq, events}: the webhook deliveries it wrote (one
 * per event and webhook of the game) into *deliveries. */
static enum store_status after_commit(PGconn **pgp, const char *const *vals, long *deliveries)
{
    PGresult *res;
    enum store_status s = db_run(pgp, ST_AFTER_COMMIT, 3, vals, NULL, &res);
    if (s != STORE_OK) return s;
    *deliveries = PQntuples(res) == 1 ? db_long(res, 0, 0, 0) : 0;
    PQclear(res);
    return STORE_OK;
}

/* The text of a struct store_turn's parameters. */
struct turn_text {
    char number[16];                      /* the turn */
    char seat[16];                        /* the seat to move, or "" (NULL) */
    char scores[CC_MAX_PLAYERS * 12 + 4]; /* "{1,2}" */
};

/* The four parameters of `t` (TURN_SET in store_db.c: number, seat, phase, scores) into
 * vals[0..4), their text in `buf`; all NULL when t->phase is (nothing known). */
static void turn_vals(const struct store_turn *t, struct turn_text *buf, const char *vals[4])
{
    for (int i = 0; i < 4; i++) vals[i] = NULL;
    if (!t->phase) return;
    snprintf(buf->number, sizeof buf->number, "%d", t->number);
    snprintf(buf->seat, sizeof buf->seat, "%d", t->seat);
    size_t o = 0;
    buf->scores[o++] = '{';
    for (int i = 0; i < t->nscores && i < CC_MAX_PLAYERS; i++) {
        int n =
            snprintf(buf->scores + o, sizeof buf->scores - o, "%s%d", i ? "," : "", t->scores[i]);
        if (n > 0) o += (size_t)n;
    }
    buf->scores[o++] = '}';
    buf->scores[o] = '\0';
    vals[0] = buf->number;
    vals[1] = t->seat >= 0 ? buf->seat : NULL;
    vals[2] = t->phase;
    vals[3] = buf->scores;
}

/* The row of an idempotent answer (ST_IDEM_PUT): its body sealed (0011). */
struct idem_row {
    char status[16];
    uint8_t *sealed; /* malloc'd */
    const char *vals[7];
    int lens[7];
};

/* `idem`'s row into *r (free r->sealed). 0, or -1 when it could not be sealed. */
static int idem_row(const struct store_idem *idem, struct idem_row *r)
{
    snprintf(r->status, sizeof r->status, "%d", idem->status);
    size_t sealed_len = 0;
    r->sealed = NULL;
    if (seal_close(idem->seal_key, idem->scope, idem->body, strlen(idem->body), &r->sealed,
                   &sealed_len)) {
        log_kv(LOG_ERROR, "an idempotent answer could not be sealed", NULL);
        return -1;
    }
    const char *vals[7] = {idem->scope,
                           (const char *)idem->key_hash,
                           (const char *)idem->request_hash,
                           r->status,
                           idem->location,
                           idem->etag,
                           (const char *)r->sealed};
    int lens[7] = {0, SEAL_HASH_LEN, AUTH_HASH_LEN, 0, 0, 0, (int)sealed_len};
    memcpy(r->vals, vals, sizeof vals);
    memcpy(r->lens, lens, sizeof lens);
    return 0;
}

/* Remembers an idempotent answer inside the current transaction. */
enum store_status db_idem_put(PGconn *pg, const struct store_idem *idem)
{
    struct idem_row r;
    if (idem_row(idem, &r)) return STORE_ERROR;
    long n = 0;
    enum store_status s = db_run_cmd(&pg, ST_IDEM_PUT, 7, r.vals, r.lens, &n);
    free(r.sealed);
    if (s == STORE_OK && n != 1) s = STORE_DUPLICATE;
    return s;
}

enum store_status db_keyed_put(PGconn *pg, int (*keyed)(void *, int, const struct store_idem **),
                               void *arg, int outcome)
{
    const struct store_idem *keep = NULL;
    if (!keyed) return STORE_OK;
    if (keyed(arg, outcome, &keep)) return STORE_ERROR;
    return keep ? db_idem_put(pg, keep) : STORE_OK;
}

/* The rows of new game `g` sent into pipeline `p` (in a transaction); the deliveries and
 * jobs they gave work are added to *deliveries and *jobs once the pipeline is closed. */
static void game_rows(struct db_pipe *p, const struct store_new_game *g, long *deliveries,
                      long *jobs)
{
    char seed[24], last_seq[16];
    snprintf(seed, sizeof seed, "%" PRIu64, g->seed);
    snprintf(last_seq, sizeof last_seq, "%d", g->last_seq);
    if (g->nseeks > 0) { /* every seek still waiting, or nothing is kept */
        const char *vals[3] = {g->id, g->seek_ids, g->seek_seats};
        db_pipe_send(p, ST_SEEKS_BIND, 3, vals, NULL,
                     (struct db_pipe_check){
                         .want = PIPE_FIRST_IS, .value = g->nseeks, .miss = STORE_CONFLICT});
    }
    struct turn_text tt;
    const char *vals[23] = {g->id,
                            g->ruleset,
                            g->options_json,
                            seed,
                            g->start,
                            g->deck_json,
                            g->status,
                            last_seq,
                            (const char *)g->snapshot,
                            g->hints_off ? "true" : "false",
                            g->result,
                            g->rematch_of,
                            NULL,
                            NULL,
                            NULL,
                            NULL, /* the turn: turn_vals() below */
                            g->clock_json,
                            g->clock_json ? g->deadline : NULL,
                            g->seed_chosen ? "true" : "false",
                            g->owner,
                            g->rated ? "true" : "false",
                            g->chat_public ? "true" : "false",
                            g->listed ? "true" : "false"};
    turn_vals(&g->turn, &tt, vals + 12);
    int lens[23] = {[8] = (int)g->snapshot_len};
    db_pipe_send(p, ST_GAME_INSERT, 23, vals, lens, db_pipe_ran());
    for (int i = 0; i < g->nplayers; i++) {
        char seat[16], think[16];
        snprintf(seat, sizeof seat, "%d", i);
        snprintf(think, sizeof think, "%d", g->players[i].think_ms);
        const char *person = g->players[i].person_id[0] ? g->players[i].person_id : NULL;
        const char *bot = g->players[i].bot[0] ? g->players[i].bot : NULL;
        const char *invite = g->players[i].open ? (const char *)g->players[i].invite_sha : NULL;
        const char *pvals[9] = {
            g->id,  seat, g->players[i].name, (const char *)g->players[i].token_hash,
            person, bot,  bot ? think : NULL, g->players[i].unclaimed ? "true" : NULL,
            invite};
        int plens[9] = {0, 0, 0, AUTH_HASH_LEN, 0, 0, 0, 0, invite ? AUTH_HASH_LEN : 0};
        db_pipe_send(p, ST_PLAYER_INSERT, 9, pvals, plens, db_pipe_ran());
    }
    if (g->tourney_id) { /* a table takes one game (0032) */
        char round[16], table[16];
        snprintf(round, sizeof round, "%d", g->tourney_round);
        snprintf(table, sizeof table, "%d", g->tourney_table);
        const char *tvals[4] = {g->id, g->tourney_id, round, table};
        db_pipe_send(p, ST_TOURNEY_TABLE_BIND, 4, tvals, NULL, db_pipe_one_row(STORE_CONFLICT));
    }
    const char *evals[3] = {g->id, "1", g->events_json};
    db_pipe_send(p, ST_EVENTS_INSERT, 3, evals, NULL, db_pipe_ran());
    if (g->replay_json) { /* a replay's actions and events (store_export.c) */
        char version[16];
        snprintf(version, sizeof version, "%d", g->replay_version);
        const char *rvals[3] = {g->id, g->replay_json, version};
        db_pipe_send(p, ST_REPLAY_ROWS, 3, rvals, NULL, db_pipe_ran());
    }
    if (g->idem) {
        struct idem_row r;
        if (idem_row(g->idem, &r)) {
            db_pipe_fail(p, STORE_ERROR);
        } else {
            db_pipe_send(p, ST_IDEM_PUT, 7, r.vals, r.lens, db_pipe_one_row(STORE_DUPLICATE));
            free(r.sealed);
        }
    }
    char json_buf[STORE_JOBS_JSON_MAX];
    const char *json = g->jobs ? store_jobs_json(g->jobs, json_buf, sizeof json_buf) : NULL;
    if (json) {
        const char *jvals[3] = {g->id, "1", json};
        db_pipe_send(p, ST_JOBS_SET, 3, jvals, NULL, db_pipe_counted(jobs));
    }
    if (g->webhook_url) {
        /* The creator's (0006): no seat's token reaches it. */
        const char *wvals[5] = {g->id, g->webhook_url, g->webhook_secret, "creator",
                                g->webhook_format ? g->webhook_format : "tilehall"};
        db_pipe_send(p, ST_WEBHOOK_PUT, 5, wvals, NULL, db_pipe_ran());
    }
    /* A seat bound to a person with a webhook got its webhook row with the seat (0012). */
    int bound = 0;
    for (int i = 0; i < g->nplayers; i++) bound |= g->players[i].person_id[0] != '\0';
    if (g->webhook_url || bound) {
        const char *after[3] = {g->id, last_seq, g->events_json};
        db_pipe_send(p, ST_AFTER_COMMIT, 3, after, NULL, db_pipe_counted(deliveries));
    }
}

enum store_status store_game_create(const struct store_new_game *g)
{
    return store_games_create(&g, 1);
}

enum store_status store_games_create(const struct store_new_game *const *gs, int n)
{
    PGconn *pg = db_conn();
    if (!pg) return STORE_UNAVAILABLE;
    long deliveries = 0, jobs = 0;
    struct db_pipe p;
    enum store_status s = db_begin(&pg);
    if (s == STORE_OK) s = db_pipe_open(&p, pg);
    if (s == STORE_OK) {
        for (int i = 0; i < n; i++) game_rows(&p, gs[i], &deliveries, &jobs);
        s = db_pipe_close(&p);
    }
    return commit_and_wake(pg, s, deliveries, jobs);
}

/* A 4-byte integer of a binary result (network byte order). */
static int get_int4(const PGresult *res, int row, int col)
{
    const unsigned char *p = (const unsigned char *)PQgetvalue(res, row, col);
    if (PQgetlength(res, row, col) != 4) return -1;
    return (int)((uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]);
}

/* Seat `row`'s rating of ST_GAME_LOAD (columns 17 to 23, text and int4 in binary form:
 * text is its bytes, NUL-terminated by libpq) into *out; known 0 for a seat of a name, or
 * of a subject without a rated game in the pool yet (no row: none to show, as a profile
 * shows no such pool). */
static void seat_rating(const PGresult *res, int row, struct store_seat_rating *out)
{
    memset(out, 0, sizeof *out);
    out->known = get_int4(res, row, 23) == 1 && !PQgetisnull(res, row, 17);
    out->read_ms = strtoll(PQgetvalue(res, row, 22), NULL, 10);
    if (!out->known) return;
    out->rating.rating = strtod(PQgetvalue(res, row, 17), NULL);
    out->rating.deviation = strtod(PQgetvalue(res, row, 18), NULL);
    out->rating.volatility = strtod(PQgetvalue(res, row, 19), NULL);
    out->games = (int)strtol(PQgetvalue(res, row, 20), NULL, 10);
    if (!PQgetisnull(res, row, 21))
        out->last_rated_ms = strtoll(PQgetvalue(res, row, 21), NULL, 10);
}

enum store_status store_game_load(const char *id, struct store_game *out)
{
    PGconn *pg = db_conn();
    if (!pg) return STORE_UNAVAILABLE;
    const char *vals[1] = {id};
    PGresult *res;
    enum store_status s = db_run_fmt(&pg, ST_GAME_LOAD, 1, vals, NULL, 1, &res);
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
    out->hints_off = get_int4(res, 0, 9) == 0;
    out->seed_chosen = get_int4(res, 0, 14) != 0;
    out->rated = get_int4(res, 0, 15) == 1;
    out->chat_public = get_int4(res, 0, 16) == 1;
    out->listed = get_int4(res, 0, 24) == 1;
    const char *status = PQgetvalue(res, 0, 11);
    out->state = strcmp(status, "waiting") == 0   ? STORE_WAITING
                 : strcmp(status, "aborted") == 0 ? STORE_ABORTED
                                                  : STORE_PLAYING;
    /* The clock (0011): text (binary format of text is its bytes), NULL for none. */
    memset(&out->clock, 0, sizeof out->clock);
    if (!PQgetisnull(res, 0, 13) &&
        store_clock_decode(PQgetvalue(res, 0, 13), (size_t)PQgetlength(res, 0, 13), &out->clock)) {
        log_kv(LOG_ERROR, "stored clock does not decode", "game", id, NULL);
        goto out;
    }
    for (int i = 0; i < n && i < CC_MAX_PLAYERS; i++) {
        struct store_player *p = &out->players[i];
        size_t nl = (size_t)PQgetlength(res, i, 3);
        if (get_int4(res, i, 2) != i || nl > STORE_NAME_MAX ||
            PQgetlength(res, i, 4) != AUTH_HASH_LEN)
            goto out;
        memcpy(p->name, PQgetvalue(res, i, 3), nl);
        p->name[nl] = '\0';
        memcpy(p->token_hash, PQgetvalue(res, i, 4), AUTH_HASH_LEN);
        p->person_id[0] = '\0';
        if (!PQgetisnull(res, i, 6)) {
            if (PQgetlength(res, i, 6) != AUTH_UUID_LEN) goto out;
            memcpy(p->person_id, PQgetvalue(res, i, 6), AUTH_UUID_LEN);
            p->person_id[AUTH_UUID_LEN] = '\0';
        }
        size_t bl = (size_t)PQgetlength(res, i, 7);
        if (bl >= sizeof p->bot) goto out;
        memcpy(p->bot, PQgetvalue(res, i, 7), bl);
        p->bot[bl] = '\0';
        p->think_ms = get_int4(res, i, 8);
        /* token_unclaimed (0009), a binary boolean: one byte. */
        p->unclaimed = PQgetlength(res, i, 10) == 1 && PQgetvalue(res, i, 10)[0] != 0;
        p->open = !PQgetisnull(res, i, 12);
        memset(p->invite_sha, 0, AUTH_HASH_LEN);
        if (p->open) {
            if (PQgetlength(res, i, 12) != AUTH_HASH_LEN) goto out;
            memcpy(p->invite_sha, PQgetvalue(res, i, 12), AUTH_HASH_LEN);
        }
        seat_rating(res, i, &p->rating);
        out->nplayers++;
    }
    s = STORE_OK;
out:
    PQclear(res);
    return s;
}

enum store_status store_rematch_find(const char *id, char *next)
{
    PGresult *res;
    enum store_status s = db_row_of(ST_REMATCH_FIND, id, 0, &res);
    if (s != STORE_OK) return s;
    if (PQgetlength(res, 0, 0) != AUTH_UUID_LEN) {
        s = STORE_ERROR;
    } else {
        memcpy(next, PQgetvalue(res, 0, 0), AUTH_UUID_LEN);
        next[AUTH_UUID_LEN] = '\0';
    }
    PQclear(res);
    return s;
}

enum store_status store_seat_claim(const char *id, int seat, const uint8_t hash[AUTH_HASH_LEN])
{
    PGconn *pg = db_conn();
    if (!pg) return STORE_UNAVAILABLE;
    char seat_txt[16];
    snprintf(seat_txt, sizeof seat_txt, "%d", seat);
    const char *vals[3] = {id, seat_txt, (const char *)hash};
    int lens[3] = {0, 0, AUTH_HASH_LEN};
    long n = 0;
    enum store_status s = db_run_cmd(&pg, ST_SEAT_CLAIM, 3, vals, lens, &n);
    if (s == STORE_OK && n != 1) s = STORE_NOT_FOUND;
    return s;
}

enum store_status store_game_version(const char *id, int *version)
{
    PGresult *res;
    enum store_status s = db_row_of(ST_GAME_VERSION, id, 1, &res);
    if (s != STORE_OK) return s;
    if ((*version = get_int4(res, 0, 0)) < 0) s = STORE_ERROR;
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

enum store_status store_game_watch(const char *id, int lease_ms, int *exists)
{
    *exists = 0;
    PGconn *pg = db_conn();
    if (!pg) return STORE_UNAVAILABLE;
    char lease[16];
    snprintf(lease, sizeof lease, "%d", lease_ms);
    const char *vals[2] = {id, lease};
    long rows = 0;
    enum store_status s = db_run_cmd(&pg, ST_GAME_WATCH, 2, vals, NULL, &rows);
    *exists = rows == 1;
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
    PGconn *pg = db_conn();
    if (!pg) return STORE_UNAVAILABLE;
    char *list = uuid_array(ids, n);
    if (!list) return STORE_ERROR;
    const char *vals[1] = {list};
    PGresult *res;
    enum store_status s = db_run(&pg, ST_GAME_VERSIONS, 1, vals, NULL, &res);
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

/*
 * The end of the rated game of `c` inside the commit's open transaction, after its version
 * guard held and its action was written (0025): the seats' resignations from the stored
 * actions (the one of this commit included), the ratings updated (ratings_apply_game),
 * each seat's change into c->rated and, rated, their JSON into json[cap] (else "").
 */
static enum store_status rate_game(PGconn **pgp, const struct store_commit *c, char *json,
                                   size_t cap)
{
    struct ratings_game g = *c->rate;
    json[0] = '\0';
    for (int i = 0; i < g.nseats; i++) g.seats[i].out_at = 0;
    const char *vals[1] = {c->id};
    PGresult *res;
    enum store_status s = db_run(pgp, ST_RESIGNATIONS, 1, vals, NULL, &res);
    if (s != STORE_OK) return s;
    for (int r = 0; r < PQntuples(res); r++) {
        long seat = db_long(res, r, 0, -1), at = db_long(res, r, 1, 0);
        if (seat >= 0 && seat < g.nseats && at > 0) g.seats[seat].out_at = (int)at;
    }
    PQclear(res);
    s = ratings_apply_game((struct pg_conn **)pgp, &g, c->rated);
    if (s == STORE_OK && c->rated[0].rated && ratings_changes_json(&g, c->rated, json, cap) != 0)
        s = STORE_ERROR;
    return s;
}

/* The action of `c` with its idempotent answer, or the end of a rated game: a transaction
 * of several statements. */
static enum store_status commit_remembered(PGconn *pg, const struct store_commit *c,
                                           long *deliveries, long *jobs)
{
    char version[16], new_version[16], last_seq[16], seat[16];
    snprintf(version, sizeof version, "%d", c->version);
    snprintf(new_version, sizeof new_version, "%d", c->version + 1);
    snprintf(last_seq, sizeof last_seq, "%d", c->last_seq);
    snprintf(seat, sizeof seat, "%d", c->seat);
    enum store_status s = db_begin(&pg);
    if (s == STORE_OK) {
        struct turn_text tt;
        const char *vals[12] = {c->id,
                                version,
                                c->status,
                                last_seq,
                                (const char *)c->snapshot,
                                c->result,
                                NULL,
                                NULL,
                                NULL,
                                NULL,
                                c->clock_json,
                                c->clock_json ? c->deadline : NULL};
        turn_vals(&c->turn, &tt, vals + 6);
        int lens[12] = {0, 0, 0, 0, (int)c->snapshot_len, 0, 0, 0, 0, 0, 0, 0};
        long n = 0;
        s = db_run_cmd(&pg, ST_GAME_UPDATE, 12, vals, lens, &n);
        if (s == STORE_OK && n != 1) s = STORE_CONFLICT;
    }
    if (s == STORE_OK && c->kind) {
        const char *vals[5] = {c->id, new_version, seat, c->kind, c->action_json};
        s = db_run_cmd(&pg, ST_ACTION_INSERT, 5, vals, NULL, NULL);
    }
    char rated[RATINGS_EVENT_JSON_MAX] = "";
    if (s == STORE_OK && c->rate) s = rate_game(&pg, c, rated, sizeof rated);
    if (s == STORE_OK) {
        const char *vals[4] = {c->id, new_version, c->events_json, rated};
        s = db_run_cmd(&pg, rated[0] ? ST_EVENTS_INSERT_RATED : ST_EVENTS_INSERT, rated[0] ? 4 : 3,
                       vals, NULL, NULL);
    }
    if (s == STORE_OK && c->idem) {
        /* The answer remembered is the one the caller gives: with the ratings. */
        struct store_idem idem = *c->idem;
        if (rated[0] && c->rated_answer && !(idem.body = c->rated_answer(c->rated_ctx, rated)))
            s = STORE_ERROR;
        if (s == STORE_OK) s = db_idem_put(pg, &idem);
    } else if (s == STORE_OK && rated[0] && c->rated_answer &&
               !c->rated_answer(c->rated_ctx, rated)) {
        s = STORE_ERROR;
    }
    if (s == STORE_OK && c->jobs) s = jobs_set(&pg, c->id, c->version + 1, c->jobs, jobs);
    if (s == STORE_OK) {
        const char *vals[3] = {c->id, last_seq, c->events_json};
        s = after_commit(&pg, vals, deliveries);
    }
    if (s == STORE_OK) s = db_exec(pg, "COMMIT", "commit");
    if (s != STORE_OK) db_rollback(pg);
    return s;
}

enum store_status store_game_commit(const struct store_commit *c)
{
    PGconn *pg = db_conn();
    if (!pg) return STORE_UNAVAILABLE;
    /* The state read may come from a primary gone since (db_conn() may just have
     * connected to its successor): not committed on top of what may never have been. */
    if (c->epoch && store_epoch() && c->epoch != store_epoch()) return STORE_UNAVAILABLE;
    enum store_status s;
    long deliveries = 0, jobs = 0;
    if (c->idem || c->rate) {
        s = commit_remembered(pg, c, &deliveries, &jobs);
    } else {
        char version[16], last_seq[16], seat[16], jobs_buf[STORE_JOBS_JSON_MAX];
        snprintf(version, sizeof version, "%d", c->version);
        snprintf(last_seq, sizeof last_seq, "%d", c->last_seq);
        snprintf(seat, sizeof seat, "%d", c->seat);
        struct turn_text tt;
        /* The jobs last: a commit without jobs sends the statement without them, with the
         * first 16 parameters (ST_GAME_COMMIT). */
        const char *jobs_json = store_jobs_json(c->jobs, jobs_buf, sizeof jobs_buf);
        const char *vals[17] = {c->id,
                                version,
                                c->status,
                                last_seq,
                                (const char *)c->snapshot,
                                seat,
                                c->kind,
                                c->action_json,
                                c->events_json,
                                c->result,
                                NULL,
                                NULL,
                                NULL,
                                NULL, /* the turn: turn_vals() below */
                                c->clock_json,
                                c->clock_json ? c->deadline : NULL,
                                jobs_json};
        turn_vals(&c->turn, &tt, vals + 10);
        int lens[17] = {0, 0, 0, 0, (int)c->snapshot_len, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        PGresult *res;
        s = jobs_json ? db_run(&pg, ST_GAME_COMMIT_JOBS, 17, vals, lens, &res)
                      : db_run(&pg, ST_GAME_COMMIT, 16, vals, lens, &res);
        if (s == STORE_OK) {
            if (PQntuples(res) != 1) {
                s = STORE_CONFLICT;
            } else {
                deliveries = db_long(res, 0, 0, 0);
                jobs = db_long(res, 0, 2, 0);
            }
            PQclear(res);
        }
    }
    /* A version that moved on shows as a duplicate action or event key too. */
    if (s == STORE_DUPLICATE && !c->idem) s = STORE_CONFLICT;
    if (s == STORE_OK) store_wake(deliveries, jobs);
    return s;
}

enum store_status store_events_page(const char *id, int after, int limit,
                                    struct store_events_page *out)
{
    memset(out, 0, sizeof *out);
    PGresult *res;
    enum store_status s = db_run_page(ST_EVENTS_LIST, id, after, limit, &res);
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
    snprintf(out->status, sizeof out->status, "%s", PQgetvalue(res, 0, 1));
    out->finished = strcmp(out->status, "finished") == 0;
    out->game_last_seq = (int)db_long(res, 0, 2, 0);
    out->last_seq = n ? (int)db_long(res, n - 1, 3, after) : after;
    PQclear(res);
    out->json = buf;
    out->count = n;
    return STORE_OK;
}

enum store_status store_events(const char *id, int after, int limit, char **json, int *count)
{
    struct store_events_page p;
    enum store_status s = store_events_page(id, after, limit, &p);
    *json = p.json;
    *count = p.count;
    return s;
}

enum store_status store_events_each(const char *id, int after, int limit,
                                    int (*fn)(void *arg, int seq, const char *type,
                                              const char *payload, size_t len),
                                    void *arg, int *count)
{
    *count = 0;
    PGresult *res;
    enum store_status s = db_run_page(ST_EVENTS_EACH, id, after, limit, &res);
    if (s != STORE_OK) return s;
    s = db_events_each(res, 0, fn, arg, count); /* seq is never NULL here */
    PQclear(res);
    return s;
}

/* Column `col` of `res` (text format) as bytes: malloc'd (PQfreemem) with *len, or NULL. */
static unsigned char *bytea_col(const PGresult *res, int col, size_t *len)
{
    *len = 0;
    if (PQgetisnull(res, 0, col)) return NULL;
    return PQunescapeBytea((const unsigned char *)PQgetvalue(res, 0, col), len);
}

enum store_status store_idem_get(const char *scope, const uint8_t key_hash[SEAL_HASH_LEN],
                                 const uint8_t seal_key[SEAL_KEY_LEN], struct store_idem *out)
{
    char hex[2 * SEAL_HASH_LEN + 1];
    for (int i = 0; i < SEAL_HASH_LEN; i++) snprintf(hex + 2 * i, 3, "%02x", key_hash[i]);
    const char *vals[2] = {scope, hex};
    PGresult *res;
    enum store_status s = db_run_row(ST_IDEM_GET, 2, vals, 0, &res);
    if (s != STORE_OK) return s;
    size_t len = 0, sealed_len = 0;
    unsigned char *h = bytea_col(res, 0, &len);
    if (h && len == AUTH_HASH_LEN) memcpy(out->request_hash, h, AUTH_HASH_LEN);
    PQfreemem(h);
    out->status = (int)strtol(PQgetvalue(res, 0, 1), NULL, 10);
    out->location = PQgetisnull(res, 0, 2) ? NULL : strdup(PQgetvalue(res, 0, 2));
    out->etag = PQgetisnull(res, 0, 3) ? NULL : strdup(PQgetvalue(res, 0, 3));
    out->locked = out->unsealed = 0;
    unsigned char *sealed = bytea_col(res, 5, &sealed_len);
    int ok = len == AUTH_HASH_LEN;
    if (sealed) {
        char *body = NULL;
        size_t body_len = 0;
        if (seal_open(seal_key, scope, sealed, sealed_len, &body, &body_len) == 0)
            out->body = body;
        else
            out->locked = 1;
    } else if (!PQgetisnull(res, 0, 4)) {
        out->body = strdup(PQgetvalue(res, 0, 4)); /* from before 0011 */
        out->unsealed = 1;
        ok &= out->body != NULL;
    } else {
        ok = 0;
    }
    PQfreemem(sealed);
    PQclear(res);
    if (!ok || (!out->body && !out->locked)) {
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

enum store_status store_counts(long *active, long *finished, long *deliveries)
{
    *active = *finished = *deliveries = 0;
    PGconn *pg = db_conn();
    if (!pg) return STORE_UNAVAILABLE;
    PGresult *res;
    enum store_status s = db_run(&pg, ST_COUNTS, 0, NULL, NULL, &res);
    if (s != STORE_OK) return s;
    if (PQntuples(res) == 1) {
        *active = db_long(res, 0, 0, 0);
        *finished = db_long(res, 0, 1, 0);
        *deliveries = db_long(res, 0, 2, 0);
    }
    PQclear(res);
    return STORE_OK;
}

enum store_status store_game_join(struct store_join *j)
{
    j->already_seated = 0;
    PGconn *pg = db_conn();
    if (!pg) return STORE_UNAVAILABLE;
    char version[16], new_version[16], last_seq[16], seat[16];
    snprintf(version, sizeof version, "%d", j->version);
    snprintf(new_version, sizeof new_version, "%d", j->version + 1);
    snprintf(last_seq, sizeof last_seq, "%d", j->last_seq);
    snprintf(seat, sizeof seat, "%d", j->seat);
    long deliveries = 0, n = 0, jobs = 0;
    enum store_status s = db_begin(&pg);
    /* The game's row first: it is locked from here to the commit, so joins of one game
     * (and its other commits) run one after the other, each deciding on the state the
     * one before left. */
    if (s == STORE_OK) {
        const char *vals[6] = {j->id,    version,       j->started ? "true" : "false",
                               last_seq, j->clock_json, j->clock_json ? j->deadline : NULL};
        s = db_run_cmd(&pg, ST_JOIN_GAME, 6, vals, NULL, &n);
        if (s == STORE_OK && n != 1) s = STORE_CONFLICT;
    }
    if (s == STORE_OK) {
        const char *vals[6] = {j->id,        seat,
                               j->name,      (const char *)j->token_hash,
                               j->person_id, (const char *)j->invite_hash};
        int lens[6] = {0, 0, 0, AUTH_HASH_LEN, 0, AUTH_HASH_LEN};
        s = db_run_cmd(&pg, ST_JOIN_SEAT, 6, vals, lens, &n);
        /* players_person_game (0008): the person holds another seat of this game. */
        if (s == STORE_DUPLICATE) j->already_seated = 1;
        if (s == STORE_OK && n != 1) s = STORE_NOT_FOUND;
    }
    if (s == STORE_OK) {
        const char *vals[5] = {j->id, new_version, seat, "join", j->action_json};
        s = db_run_cmd(&pg, ST_ACTION_INSERT, 5, vals, NULL, NULL);
    }
    if (s == STORE_OK) {
        const char *vals[3] = {j->id, new_version, j->events_json};
        s = db_run_cmd(&pg, ST_EVENTS_INSERT, 3, vals, NULL, NULL);
    }
    if (s == STORE_OK && j->idem) s = db_idem_put(pg, j->idem);
    if (s == STORE_OK && j->jobs) s = jobs_set(&pg, j->id, j->version + 1, j->jobs, &jobs);
    if (s == STORE_OK) {
        const char *vals[3] = {j->id, last_seq, j->events_json};
        s = after_commit(&pg, vals, &deliveries);
    }
    return commit_and_wake(pg, s, deliveries, jobs);
}
