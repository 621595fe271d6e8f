/* store_live.c: what live updates read: a game's events one by one, and the connection
 * that LISTENs for the commits' notifications. */
#include "store.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libpq-fe.h>

#include "log.h"
#include "store_db.h"
#include "metrics.h"

enum store_status store_events_each(const char *id, int after, int limit,
                                    int (*fn)(void *arg, int seq, const char *type,
                                              const char *payload, size_t len),
                                    void *arg, int *count)
{
    *count = 0;
    PGconn *pg = db_conn();
    if (!pg) return STORE_UNAVAILABLE;
    char a[16], l[16];
    snprintf(a, sizeof a, "%d", after);
    snprintf(l, sizeof l, "%d", limit);
    const char *vals[3] = {id, a, l};
    PGresult *res;
    enum store_status s = db_run(&pg, ST_EVENTS_EACH, 3, vals, NULL, &res);
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

/* A connection that only listens (LISTEN): the live hub's, apart from the thread ones. */
struct store_listener {
    PGconn *pg; /* connected, listening */
};

struct store_listener *store_listener_new(void)
{
    const char *conninfo = db_conninfo();
    if (!conninfo) return NULL;
    PGconn *pg = PQconnectdb(conninfo);
    if (PQstatus(pg) != CONNECTION_OK) {
        db_log("listen connect", pg, NULL);
        metrics_db_error(1);
        PQfinish(pg);
        return NULL;
    }
    PQsetNoticeProcessor(pg, db_on_notice, NULL);
    PGresult *res = PQexec(pg, "LISTEN " STORE_EVENTS_CHANNEL);
    int ok = PQresultStatus(res) == PGRES_COMMAND_OK;
    if (!ok) db_log("listen", pg, res);
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
