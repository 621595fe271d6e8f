/* store_tourney_rounds.c: tournaments after the start (migrations/0032;
 * store_tourney_rounds.h). */
#include "store_tourney_rounds.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "store_db.h"

/* A malloc'd copy of column `col` of row `row`, or NULL when it is NULL (or no memory:
 * *bad set). */
static char *dup_col(const PGresult *res, int row, int col, int *bad)
{
    if (PQgetisnull(res, row, col)) return NULL;
    char *s = strdup(PQgetvalue(res, row, col));
    if (!s) *bad = 1;
    return s;
}

/* The index of entrant `id` among t's, or -1. */
static int entrant_of(const struct store_tourney *t, const char *id)
{
    for (int i = 0; i < t->n; i++)
        if (strcmp(t->entrants[i].id, id) == 0) return i;
    return -1;
}

/* Table row `r` of `res` (ST_TOURNEY_TABLES) into *x. Returns 0, or -1 when it names an
 * entrant unknown or too many seats. */
static int table_of(const struct store_tourney *t, const PGresult *res, int r,
                    struct store_tourney_table *x)
{
    memset(x, 0, sizeof *x);
    x->round = (int)db_long(res, r, 0, 0);
    x->table_no = (int)db_long(res, r, 1, 0);
    char seats[STORE_TOURNEY_SEATS * (AUTH_UUID_LEN + 1) + 1];
    if (db_take_text(res, r, 2, seats, sizeof seats)) return -1;
    for (char *p = seats; *p;) { /* "id,id,..." */
        char *comma = strchr(p, ',');
        if (comma) *comma = '\0';
        int e = entrant_of(t, p);
        if (e < 0 || x->nseats >= STORE_TOURNEY_SEATS) return -1;
        x->seat[x->nseats++] = e;
        p = comma ? comma + 1 : p + strlen(p);
    }
    if (!PQgetisnull(res, r, 3)) db_take_text(res, r, 3, x->game, sizeof x->game);
    x->ended = db_long(res, r, 4, 0) == 1;
    const char *scores = PQgetvalue(res, r, 5);
    for (int s = 0; s < x->nseats && *scores; s++) {
        char *end;
        x->score[s] = (int)strtol(scores, &end, 10);
        scores = *end == ',' ? end + 1 : end;
    }
    const char *out = PQgetvalue(res, r, 6); /* "seat:version,..." */
    while (*out) {
        char *end;
        long seat = strtol(out, &end, 10);
        if (*end != ':') break;
        long at = strtol(end + 1, &end, 10);
        if (seat >= 0 && seat < x->nseats) x->out_at[seat] = (int)at;
        out = *end == ',' ? end + 1 : end;
        if (*end && *end != ',') break;
    }
    return 0;
}

enum store_status store_tourney_load(const char *id, struct store_tourney *t)
{
    const char *vals[1] = {id};
    PGresult *res;
    int bad = 0;
    memset(t, 0, sizeof *t);
    enum store_status s = db_run_row(ST_TOURNEY_ROW, 1, vals, 0, &res);
    if (s != STORE_OK) return s;
    db_copy_text(res, 0, t->format, sizeof t->format);
    db_copy_text(res, 1, t->ruleset, sizeof t->ruleset);
    t->options_json = dup_col(res, 0, 2, &bad);
    t->players_per_game = (int)db_long(res, 0, 3, 2);
    t->rounds = (int)db_long(res, 0, 4, 0);
    t->clock_json = dup_col(res, 0, 5, &bad);
    t->rated = db_long(res, 0, 6, 0) == 1;
    db_copy_text(res, 7, t->status, sizeof t->status);
    t->round = (int)db_long(res, 0, 8, 0);
    db_copy_text(res, 9, t->organiser, sizeof t->organiser);
    PQclear(res);
    if (bad) return STORE_ERROR;
    PGconn *pg = db_conn();
    if (!pg) return STORE_UNAVAILABLE;
    s = db_run(&pg, ST_TOURNEY_SEEDED, 1, vals, NULL, &res);
    if (s != STORE_OK) return s;
    t->n = PQntuples(res);
    t->entrants = calloc((size_t)t->n + 1, sizeof *t->entrants);
    for (int r = 0; t->entrants && r < t->n; r++) {
        struct store_tourney_entrant *e = &t->entrants[r];
        db_take_text(res, r, 0, e->id, sizeof e->id);
        db_take_text(res, r, 1, e->name, sizeof e->name);
        e->left_round = (int)db_long(res, r, 2, 0);
    }
    PQclear(res);
    if (!t->entrants) return STORE_ERROR;
    s = db_run(&pg, ST_TOURNEY_TABLES, 1, vals, NULL, &res);
    if (s != STORE_OK) return s;
    t->ntables = PQntuples(res);
    t->tables = calloc((size_t)t->ntables + 1, sizeof *t->tables);
    for (int r = 0; t->tables && r < t->ntables && !bad; r++)
        bad = table_of(t, res, r, &t->tables[r]) != 0;
    PQclear(res);
    return !t->tables || bad ? STORE_ERROR : STORE_OK;
}

void store_tourney_free(struct store_tourney *t)
{
    free(t->options_json);
    free(t->clock_json);
    free(t->entrants);
    free(t->tables);
    memset(t, 0, sizeof *t);
}

enum store_status store_tourney_start(const char *id, char *found, size_t cap,
                                      store_tourney_keyed keyed, void *arg)
{
    found[0] = '\0';
    const char *vals[1] = {id};
    PGresult *res; /* tournament_start() answers one row, NULL for no tournament */
    if (!keyed) {
        enum store_status s = db_run_row(ST_TOURNEY_START, 1, vals, 0, &res);
        if (s == STORE_OK) {
            db_copy_text(res, 0, found, cap);
            PQclear(res);
        }
        return s;
    }
    PGconn *pg = db_conn();
    if (!pg) return STORE_UNAVAILABLE;
    enum store_status s = db_begin(&pg);
    if (s == STORE_OK) s = db_run_row(ST_TOURNEY_START, 1, vals, 0, &res);
    if (s == STORE_OK) {
        db_copy_text(res, 0, found, cap);
        PQclear(res);
        s = db_keyed_put(pg, keyed, arg, strcmp(found, "started") == 0);
    }
    if (s == STORE_OK) s = db_exec(pg, "COMMIT", "commit");
    if (s != STORE_OK) {
        db_rollback(pg);
        found[0] = '\0';
    }
    return s;
}

enum store_status store_tourney_cancel(const char *id)
{
    PGconn *pg = db_conn();
    if (!pg) return STORE_UNAVAILABLE;
    const char *vals[1] = {id};
    return db_run_cmd(&pg, ST_TOURNEY_CANCEL, 1, vals, NULL, NULL);
}

enum store_status store_tourney_pairing_put(const char *id, int round, const char *tables_json)
{
    PGconn *pg = db_conn();
    if (!pg) return STORE_UNAVAILABLE;
    char r[12];
    snprintf(r, sizeof r, "%d", round);
    const char *vals[3] = {id, r, tables_json};
    return db_run_cmd(&pg, ST_TOURNEY_PAIRING_PUT, 3, vals, NULL, NULL);
}

/* In the transaction on *pg: tournament `id`'s sweep due in `due_ms`, when somebody left. */
static enum store_status plan_sweep(PGconn **pg, const char *id, int due_ms)
{
    char due[16], lease[16];
    snprintf(due, sizeof due, "%d", due_ms);
    snprintf(lease, sizeof lease, "%d", STORE_TOURNEY_SWEEP_LEASE_MS);
    const char *vals[3] = {id, due, lease};
    return db_run_cmd(pg, ST_TOURNEY_SWEEP_PLAN, 3, vals, NULL, NULL);
}

enum store_status store_tourney_advance(const char *id, int round, const char *type,
                                        const char *data_json, long long job_id, int *done)
{
    *done = 0;
    PGconn *pg = db_conn();
    if (!pg) return STORE_UNAVAILABLE;
    char r[12], job[24];
    snprintf(r, sizeof r, "%d", round);
    snprintf(job, sizeof job, "%lld", job_id);
    enum store_status s = db_begin(&pg);
    long changed = 0;
    if (s == STORE_OK) {
        const char *vals[2] = {id, r};
        s = round ? db_run_cmd(&pg, ST_TOURNEY_ROUND_BEGIN, 2, vals, NULL, &changed)
                  : db_run_cmd(&pg, ST_TOURNEY_FINISH, 1, vals, NULL, &changed);
    }
    if (s == STORE_OK && changed == 1) {
        const char *vals[3] = {id, type, data_json};
        s = db_run_cmd(&pg, ST_TOURNEY_EVENT_PUT, 3, vals, NULL, NULL);
    }
    if (s == STORE_OK) {
        const char *vals[1] = {job};
        s = db_run_cmd(&pg, ST_TOURNEY_JOB_DONE, 1, vals, NULL, NULL);
    }
    /* A round whose games all ended before it was marked begun (fast computer players):
     * the trigger saw the round before, so the next round is planned here. */
    if (s == STORE_OK && changed == 1 && round) {
        const char *vals[1] = {id};
        s = db_run_cmd(&pg, ST_TOURNEY_CHECK, 1, vals, NULL, NULL);
    }
    if (s == STORE_OK && changed == 1 && round) s = plan_sweep(&pg, id, 0);
    if (s == STORE_OK) s = db_exec(pg, "COMMIT", "commit");
    if (s != STORE_OK) db_rollback(pg);
    if (s == STORE_OK) *done = changed == 1;
    return s;
}

enum store_status store_tourney_withdraw(const char *id, const char *person, int *was_in,
                                         char game[AUTH_UUID_LEN + 1], int *seat,
                                         store_tourney_keyed keyed, void *arg)
{
    *was_in = 0;
    game[0] = '\0';
    *seat = -1;
    PGconn *pg = db_conn();
    if (!pg) return STORE_UNAVAILABLE;
    enum store_status s = db_begin(&pg);
    if (s != STORE_OK) return s;
    /* The row locked first; the leave's statement then reads the round after the lock. */
    PGresult *res = NULL;
    s = db_run(&pg, ST_TOURNEY_LOCK, 1, &id, NULL, &res);
    if (s == STORE_OK && PQntuples(res) != 1) s = STORE_NOT_FOUND;
    PQclear(res);
    res = NULL;
    const char *vals[2] = {id, person};
    if (s == STORE_OK) s = db_run(&pg, ST_TOURNEY_WITHDRAW, 2, vals, NULL, &res);
    if (s == STORE_OK && PQntuples(res) == 1) {
        *was_in = 1;
        if (!PQgetisnull(res, 0, 0)) {
            db_take_text(res, 0, 0, game, AUTH_UUID_LEN + 1);
            *seat = (int)db_long(res, 0, 1, -1);
        }
    }
    PQclear(res);
    if (s == STORE_OK && *was_in) s = plan_sweep(&pg, id, STORE_TOURNEY_SWEEP_BACKSTOP_MS);
    if (s == STORE_OK) s = db_keyed_put(pg, keyed, arg, *was_in);
    if (s == STORE_OK) s = db_exec(pg, "COMMIT", "commit");
    if (s != STORE_OK) {
        db_rollback(pg);
        *was_in = 0;
        game[0] = '\0';
        *seat = -1;
    }
    return s;
}

enum store_status store_tourney_left_seats(const char *id, struct store_left_seat *out, int cap,
                                           int *n)
{
    *n = 0;
    char limit[12];
    snprintf(limit, sizeof limit, "%d", cap);
    const char *vals[2] = {id, limit};
    PGconn *pg = db_conn();
    if (!pg) return STORE_UNAVAILABLE;
    PGresult *res;
    enum store_status s = db_run(&pg, ST_TOURNEY_LEFT_SEATS, 2, vals, NULL, &res);
    if (s != STORE_OK) return s;
    for (int i = 0; i < PQntuples(res) && *n < cap; i++) {
        if (db_take_text(res, i, 0, out[*n].game, sizeof out[*n].game)) continue;
        out[*n].seat = (int)db_long(res, i, 1, -1);
        (*n)++;
    }
    PQclear(res);
    return STORE_OK;
}
