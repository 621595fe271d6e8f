/* store_pipe.c: statements in a pipeline, their answers checked together -- see store_pipe.h. */
#include "store_pipe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"

enum store_status db_pipe_open(struct db_pipe *p, PGconn *pg)
{
    memset(p, 0, sizeof *p);
    p->pg = pg;
    if (!PQenterPipelineMode(pg)) {
        db_log("pipeline", pg, NULL);
        p->pg = NULL;
        return STORE_ERROR;
    }
    return STORE_OK;
}

void db_pipe_fail(struct db_pipe *p, enum store_status s)
{
    if (p->failed == STORE_OK) p->failed = s;
}

/* Room for one more statement's check. 0, or -1 without memory. */
static int grow(struct db_pipe *p)
{
    if (p->n < p->cap) return 0;
    int cap = p->cap ? p->cap * 2 : 64;
    struct db_pipe_check *checks = realloc(p->checks, (size_t)cap * sizeof *checks);
    if (!checks) return -1;
    p->checks = checks;
    enum stmt *stmts = realloc(p->stmts, (size_t)cap * sizeof *stmts);
    if (!stmts) return -1;
    p->stmts = stmts;
    p->cap = cap;
    return 0;
}

void db_pipe_send(struct db_pipe *p, enum stmt st, int n, const char *const *vals, const int *lens,
                  struct db_pipe_check want)
{
    if (p->failed != STORE_OK || !p->pg) return; /* the transaction is lost already */
    int formats[DB_MAX_PARAMS] = {0};
    if (n > DB_MAX_PARAMS || grow(p)) {
        p->failed = STORE_ERROR;
        return;
    }
    for (int i = 0; lens && i < n; i++) formats[i] = lens[i] ? 1 : 0;
    /* Its first use on this connection: its preparation goes into the pipeline first. */
    int prep = db_pipe_prepare(p->pg, st);
    if (prep == 1) {
        p->checks[p->n] = (struct db_pipe_check){.want = PIPE_PREPARE};
        p->stmts[p->n++] = st;
        if (grow(p)) {
            p->failed = STORE_ERROR;
            return;
        }
    }
    char name[16];
    db_stmt_name(st, name);
    if (prep < 0 || !PQsendQueryPrepared(p->pg, name, n, vals, lens, formats, 0)) {
        p->failed = db_failure(p->pg, NULL, st);
        if (p->failed == STORE_UNAVAILABLE) p->pg = NULL; /* dropped with the connection */
        return;
    }
    if (want.want == PIPE_KEEP) *want.keep = NULL;
    p->checks[p->n] = want;
    p->stmts[p->n++] = st;
}

/* Whether result `res` (a statement's, without error) is what `c` wants. */
static enum store_status checked(PGresult *res, const struct db_pipe_check *c)
{
    long first = PQntuples(res) == 1 && PQnfields(res) >= 1 ? db_long(res, 0, 0, 0) : 0;
    switch (c->want) {
    case PIPE_CHANGED:
        return strtol(PQcmdTuples(res), NULL, 10) == c->value ? STORE_OK : c->miss;
    case PIPE_FIRST_IS:
        return PQntuples(res) == 1 && first == c->value ? STORE_OK : c->miss;
    case PIPE_FIRST_ADDS:
        if (c->sum) *c->sum += first;
        return STORE_OK;
    default:
        return STORE_OK;
    }
}

/* Drops the pipeline's connection after an answer that does not fit the protocol (the
 * transaction goes with it, as with a lost connection). */
static enum store_status broken(struct db_pipe *p)
{
    log_kv(LOG_WARN, "database pipeline out of step: connection dropped", NULL);
    db_conn_discard(p->pg);
    p->pg = NULL;
    return STORE_UNAVAILABLE;
}

/* Reads the answers of the statements sent, in order. The first failure, or STORE_OK. */
static enum store_status read_answers(struct db_pipe *p)
{
    enum store_status s = STORE_OK;
    for (int i = 0; i < p->n; i++) {
        PGresult *res = PQgetResult(p->pg);
        if (!res) return broken(p);
        ExecStatusType rs = PQresultStatus(res);
        /* A preparation that did not succeed (failed, or skipped after an earlier
         * failure): the statement is prepared again at its next use. */
        if (p->checks[i].want == PIPE_PREPARE && rs != PGRES_COMMAND_OK)
            db_pipe_unprepared(p->pg, p->stmts[i]);
        if ((rs == PGRES_COMMAND_OK || rs == PGRES_TUPLES_OK) && p->checks[i].want == PIPE_KEEP) {
            *p->checks[i].keep = res;
            res = NULL;
        } else if (rs == PGRES_COMMAND_OK || rs == PGRES_TUPLES_OK) {
            enum store_status c = checked(res, &p->checks[i]);
            if (s == STORE_OK) s = c;
        } else if (rs != PGRES_PIPELINE_ABORTED) { /* aborted: an earlier one failed */
            enum store_status f = db_failure(p->pg, res, p->stmts[i]);
            if (s == STORE_OK) s = f;
            if (f == STORE_UNAVAILABLE) { /* the connection is gone, freed with it */
                PQclear(res);
                p->pg = NULL;
                return s;
            }
        }
        PQclear(res);
        /* Each statement's answer ends with a NULL before the next one's. */
        res = PQgetResult(p->pg);
        if (res) {
            PQclear(res);
            return broken(p);
        }
    }
    return s;
}

enum store_status db_pipe_close(struct db_pipe *p)
{
    enum store_status s = p->failed;
    if (p->pg) {
        if (!PQpipelineSync(p->pg)) {
            s = broken(p);
        } else {
            enum store_status a = read_answers(p);
            if (s == STORE_OK) s = a;
        }
    }
    if (p->pg) {
        PGresult *res = PQgetResult(p->pg);
        int synced = PQresultStatus(res) == PGRES_PIPELINE_SYNC;
        PQclear(res);
        if (!synced || !PQexitPipelineMode(p->pg)) {
            enum store_status b = broken(p);
            if (s == STORE_OK) s = b;
        }
    }
    free(p->checks);
    free(p->stmts);
    p->checks = NULL;
    p->stmts = NULL;
    p->n = p->cap = 0;
    return s;
}
