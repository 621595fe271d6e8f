/* store_retention.c: the retention sweep's statements (0017): deleting old games with all
 * their rows, finding expired lobbies, purging old idempotent answers, planning the sweep's
 * job. What the sweep does with them is api/retention.c's. */
#include <stdio.h>
#include <string.h>

#include <libpq-fe.h>

#include "store.h"
#include "store_retention.h"
#include "store_db.h"

/* Runs `st` with the integers `a` and `b` (n of them) and reads the count its first row
 * holds into *count (or, with `affected`, the rows it changed). */
static enum store_status run_ints(enum stmt st, int n, int a, int b, int affected, long *count)
{
    *count = 0;
    char va[16], vb[16];
    snprintf(va, sizeof va, "%d", a);
    snprintf(vb, sizeof vb, "%d", b);
    const char *vals[2] = {va, vb};
    PGconn *pg = db_conn();
    if (!pg) return STORE_UNAVAILABLE;
    if (affected) return db_run_cmd(&pg, st, n, vals, NULL, count);
    PGresult *res;
    enum store_status s = db_run(&pg, st, n, vals, NULL, &res);
    if (s != STORE_OK) return s;
    if (PQntuples(res) == 1) *count = db_long(res, 0, 0, 0);
    PQclear(res);
    return STORE_OK;
}

enum store_status store_retention_delete(int days, int batch, long *deleted)
{
    return run_ints(ST_RETENTION_DELETE, 2, days, batch, 0, deleted);
}

enum store_status store_idem_purge(int batch, long *purged)
{
    return run_ints(ST_IDEM_PURGE, 1, batch, 0, 1, purged);
}

enum store_status store_sweep_plan(int due_ms, int lease_ms)
{
    long n;
    return run_ints(ST_SWEEP_PLAN, 2, due_ms, lease_ms, 1, &n);
}

enum store_status store_lobbies_expired(int hours, int max, char (*ids)[AUTH_UUID_LEN + 1], int *n)
{
    *n = 0;
    char vh[16], vm[16];
    snprintf(vh, sizeof vh, "%d", hours);
    snprintf(vm, sizeof vm, "%d", max);
    const char *vals[2] = {vh, vm};
    PGconn *pg = db_conn();
    if (!pg) return STORE_UNAVAILABLE;
    PGresult *res;
    enum store_status s = db_run(&pg, ST_LOBBIES_EXPIRED, 2, vals, NULL, &res);
    if (s != STORE_OK) return s;
    for (int r = 0; r < PQntuples(res) && *n < max; r++)
        snprintf(ids[(*n)++], AUTH_UUID_LEN + 1, "%s", PQgetvalue(res, r, 0));
    PQclear(res);
    return STORE_OK;
}
