/* store_live.c: the connection that LISTENs for the commits' notifications, for the live
 * updates (which read the events themselves with store_events_each, in store.c). */
#include "store.h"
#include "store_live.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libpq-fe.h>

#include "log.h"
#include "store_db.h"
#include "metrics.h"

/* A connection that only listens (LISTEN): the live hub's, apart from the thread ones. */
struct store_listener {
    PGconn *pg; /* connected, listening */
};

/* A connection of its own listening on the jobs' channel (`jobs`) or the events', or NULL. */
static struct store_listener *listener_on(int jobs)
{
    PGconn *pg = db_connect("listen connect");
    if (!pg) return NULL;
    PGresult *res = jobs ? PQexec(pg, "LISTEN " STORE_JOBS_CHANNEL)
                         : PQexec(pg, "LISTEN " STORE_EVENTS_CHANNEL);
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

struct store_listener *store_listener_new(void)
{
    return listener_on(0);
}

struct store_listener *store_listener_new_jobs(void)
{
    return listener_on(1);
}

int store_listener_fd(const struct store_listener *l)
{
    return PQsocket(l->pg);
}

/* Logs why the listening connection is given up (op: what found it): a server that
 * reports itself read-only is named as such, as a thread's connection names it
 * (store_db.c), since the listener may be the first in the process to see it. */
static void listener_lost_log(const struct store_listener *l, const char *op)
{
    int read_only = PQstatus(l->pg) == CONNECTION_OK && db_read_only(l->pg);
    log_kv(LOG_WARN, read_only ? "database is read-only" : "database connection lost", "op", op,
           NULL);
    metrics_db_error(1);
}

int store_listener_drain(struct store_listener *l, void (*fn)(const char *payload, void *arg),
                         void *arg)
{
    /* A server that turned read-only (demoted, fenced) is no longer the one the commits
     * go to: its notifications would never come, so it counts as lost. */
    if (!PQconsumeInput(l->pg) || PQstatus(l->pg) != CONNECTION_OK || db_read_only(l->pg)) {
        listener_lost_log(l, "listen");
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
    if (!ok || PQstatus(l->pg) != CONNECTION_OK || db_read_only(l->pg)) {
        listener_lost_log(l, "listen ping");
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
