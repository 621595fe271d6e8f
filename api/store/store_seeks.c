/* store_seeks.c: seeks (0027) -- see store_seeks.h. The binding of seeks to a new game is
 * part of store_game_create() (store.c: ST_SEEKS_BIND in the creation's transaction). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "log.h"
#include "store_db.h"
#include "store_pipe.h"
#include "store_seeks.h"

/* SEEK_LAPSE_SECONDS: written once before the threads start, read by all. */
static int lapse_s = STORE_SEEK_LAPSE_S;

void store_seeks_set_lapse(int seconds)
{
    lapse_s = seconds < STORE_SEEK_LAPSE_MIN_S ? STORE_SEEK_LAPSE_MIN_S : seconds;
}

int store_seeks_lapse(void)
{
    return lapse_s;
}

void store_seeks_free(struct store_seek *seeks, int n)
{
    for (int i = 0; seeks && i < n; i++) free(seeks[i].pool);
    free(seeks);
}

/* The seek of row `r` of `res` (the columns of SEEK_COLUMNS in store_db.c) into `out`.
 * Returns 0, or -1 out of memory. */
static int seek_row(const PGresult *res, int r, struct store_seek *out)
{
    memset(out, 0, sizeof *out);
    snprintf(out->id, sizeof out->id, "%s", PQgetvalue(res, r, 0));
    snprintf(out->person_id, sizeof out->person_id, "%s", PQgetvalue(res, r, 1));
    snprintf(out->person_name, sizeof out->person_name, "%s", PQgetvalue(res, r, 2));
    snprintf(out->status, sizeof out->status, "%s", PQgetvalue(res, r, 3));
    snprintf(out->game_id, sizeof out->game_id, "%s", PQgetvalue(res, r, 4));
    out->seat = (int)db_long(res, r, 5, -1);
    out->players = (int)db_long(res, r, 7, 2);
    out->live = strcmp(PQgetvalue(res, r, 8), "t") == 0;
    out->rating = strtod(PQgetvalue(res, r, 9), NULL);
    out->has_range = !PQgetisnull(res, r, 10);
    out->rating_min = strtod(PQgetvalue(res, r, 10), NULL);
    out->rating_max = strtod(PQgetvalue(res, r, 11), NULL);
    out->bot_after_s = (int)db_long(res, r, 12, 0);
    out->age_ms = db_long(res, r, 13, 0);
    snprintf(out->created_at, sizeof out->created_at, "%s", PQgetvalue(res, r, 14));
    snprintf(out->expires_at, sizeof out->expires_at, "%s", PQgetvalue(res, r, 15));
    snprintf(out->ruleset, sizeof out->ruleset, "%s", PQgetvalue(res, r, 16));
    out->pool = strdup(PQgetvalue(res, r, 6));
    return out->pool ? 0 : -1;
}

/* Reads every row of `res` (then cleared) into a new array *out of *n seeks. */
static enum store_status seek_rows(PGresult *res, struct store_seek **out, int *n)
{
    int rows = PQntuples(res);
    *out = NULL;
    *n = 0;
    if (rows > 0 && !(*out = calloc((size_t)rows, sizeof **out))) {
        PQclear(res);
        return STORE_ERROR;
    }
    for (int r = 0; r < rows; r++) {
        if (seek_row(res, r, &(*out)[r])) {
            PQclear(res);
            store_seeks_free(*out, r);
            *out = NULL;
            return STORE_ERROR;
        }
    }
    *n = rows;
    PQclear(res);
    return STORE_OK;
}

/* Runs `st` with `vals`, reading its one row (none: STORE_NOT_FOUND) into `out`. */
static enum store_status one_seek(PGconn **pgp, enum stmt st, int nvals, const char *const *vals,
                                  struct store_seek *out)
{
    PGresult *res;
    enum store_status s = db_run(pgp, st, nvals, vals, NULL, &res);
    if (s != STORE_OK) return s;
    if (PQntuples(res) != 1) {
        PQclear(res);
        return STORE_NOT_FOUND;
    }
    int bad = seek_row(res, 0, out);
    PQclear(res);
    return bad ? STORE_ERROR : STORE_OK;
}

enum store_status store_seek_create(const struct store_seek_new *n, store_seek_answer answer,
                                    void *arg, struct store_seek *out, int *full)
{
    memset(out, 0, sizeof *out);
    *full = 0;
    PGconn *pg = db_conn();
    if (!pg) return STORE_UNAVAILABLE;
    char players[16], lo[32], hi[32], bot[16], corr[16];
    snprintf(players, sizeof players, "%d", n->players);
    snprintf(lo, sizeof lo, "%.3f", n->rating_min);
    snprintf(hi, sizeof hi, "%.3f", n->rating_max);
    snprintf(bot, sizeof bot, "%d", n->bot_after_s);
    snprintf(corr, sizeof corr, "%d", STORE_SEEK_CORR_S);
    char lapse[16];
    snprintf(lapse, sizeof lapse, "%d", lapse_s);
    enum store_status s = db_begin(&pg);
    /* One wait for four statements (store_pipe.h): the owner's row locked, then its open
     * seeks counted in a statement of its own (its snapshot taken after the lock, so two
     * creations by one person count one after the other and the limit holds with any
     * number of servers), the seek inserted and read back. With too many open, the insert
     * is taken back with the rollback. */
    PGresult *person = NULL, *count = NULL, *row = NULL;
    struct db_pipe p;
    if (s == STORE_OK) s = db_pipe_open(&p, pg);
    if (s == STORE_OK) {
        const char *pvals[1] = {n->person_id};
        db_pipe_send(&p, ST_PERSON_LOCK, 1, pvals, NULL, db_pipe_kept(&person));
        const char *ovals[2] = {n->person_id, lapse};
        db_pipe_send(&p, ST_SEEKS_OPEN_OF, 2, ovals, NULL, db_pipe_kept(&count));
        const char *vals[10] = {n->id,
                                n->person_id,
                                n->pool,
                                players,
                                n->live ? "true" : "false",
                                n->has_range ? lo : NULL,
                                n->has_range ? hi : NULL,
                                n->bot_after_s ? bot : NULL,
                                corr,
                                n->ruleset};
        db_pipe_send(&p, ST_SEEK_INSERT, 10, vals, NULL, db_pipe_ran());
        const char *gvals[1] = {n->id};
        db_pipe_send(&p, ST_SEEK_GET, 1, gvals, NULL, db_pipe_kept(&row));
        s = db_pipe_close(&p);
    }
    if (person && PQntuples(person) != 1) s = STORE_NOT_FOUND; /* no such person */
    PQclear(person);
    long open = count && s == STORE_OK ? db_long(count, 0, 0, 0) : 0;
    PQclear(count);
    if (s == STORE_OK && open >= STORE_SEEKS_OPEN_MAX) {
        PQclear(row);
        *full = 1;
        db_rollback(pg);
        return STORE_OK;
    }
    if (s == STORE_OK && (!row || PQntuples(row) != 1 || seek_row(row, 0, out))) s = STORE_ERROR;
    PQclear(row);
    if (s == STORE_OK && answer) {
        /* The answer goes with the seek: a repeat finds both or neither. */
        const struct store_idem *idem = answer(arg, out);
        s = idem ? db_idem_put(pg, idem) : STORE_ERROR;
    }
    if (s == STORE_OK) s = db_exec(pg, "COMMIT", "commit");
    if (s != STORE_OK) {
        db_rollback(pg);
        free(out->pool);
        out->pool = NULL;
    }
    return s;
}

enum store_status store_seek_poll(const char *id, const char *owner, int touch,
                                  struct store_seek *out)
{
    PGconn *pg = db_conn();
    if (!pg) return STORE_UNAVAILABLE;
    char lapse[16], touched[16];
    snprintf(lapse, sizeof lapse, "%d", lapse_s);
    snprintf(touched, sizeof touched, "%d", lapse_s / 3);
    const char *vals[5] = {id, owner ? owner : NULL, touch ? "true" : "false", lapse, touched};
    return one_seek(&pg, ST_SEEK_POLL, 5, vals, out);
}

enum store_status store_seek_cancel(const char *id, struct store_seek *out)
{
    PGconn *pg = db_conn();
    if (!pg) return STORE_UNAVAILABLE;
    const char *vals[1] = {id};
    long n = 0;
    enum store_status s = db_run_cmd(&pg, ST_SEEK_CANCEL, 1, vals, NULL, &n);
    if (s != STORE_OK) return s;
    s = one_seek(&pg, ST_SEEK_GET, 1, vals, out);
    if (s == STORE_OK && n != 1) s = STORE_CONFLICT;
    return s;
}

enum store_status store_seeks_lobby(const char *ruleset, int max, struct store_seek **out, int *n)
{
    *out = NULL;
    *n = 0;
    PGconn *pg = db_conn();
    if (!pg) return STORE_UNAVAILABLE;
    char lim[16];
    snprintf(lim, sizeof lim, "%d", max);
    const char *vals[2] = {ruleset, lim};
    PGresult *res;
    enum store_status s = db_run(&pg, ST_SEEKS_LOBBY, 2, vals, NULL, &res);
    if (s != STORE_OK) return s;
    return seek_rows(res, out, n);
}

enum store_status store_seeks_open(int max, long *expired, struct store_seek **out, int *n)
{
    *out = NULL;
    *n = 0;
    *expired = 0;
    PGconn *pg = db_conn();
    if (!pg) return STORE_UNAVAILABLE;
    char lapse[16];
    snprintf(lapse, sizeof lapse, "%d", lapse_s);
    const char *evals[1] = {lapse};
    enum store_status s = db_run_cmd(&pg, ST_SEEKS_EXPIRE, 1, evals, NULL, expired);
    if (s != STORE_OK) return s;
    char lim[16], purge[16];
    snprintf(purge, sizeof purge, "%d", STORE_SEEKS_PURGE_BATCH);
    const char *pvals[1] = {purge};
    s = db_run_cmd(&pg, ST_SEEKS_PURGE, 1, pvals, NULL, NULL);
    if (s != STORE_OK) return s;
    snprintf(lim, sizeof lim, "%d", max);
    const char *vals[1] = {lim};
    PGresult *res;
    s = db_run(&pg, ST_SEEKS_WAITING, 1, vals, NULL, &res);
    if (s != STORE_OK) return s;
    return seek_rows(res, out, n);
}
