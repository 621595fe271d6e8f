/* store_retention.c: the retention sweep's statements (0017): deleting old games with all
 * their rows, finding expired lobbies, purging old idempotent answers, planning the sweep's
 * job. What the sweep does with them is api/retention.c's. */
#include <stdio.h>
#include <string.h>

#include <libpq-fe.h>

#include "store.h"
#include "store_retention.h"
#include "store_db.h"

/* Runs `st` with the integers `a` and `b` (n of them): with `res`, its result into *res
 * (caller PQclears); without, discarding it, the rows it changed into *affected. */
static enum store_status run_ints(enum stmt st, int n, int a, int b, long *affected, PGresult **res)
{
    char va[16], vb[16];
    snprintf(va, sizeof va, "%d", a);
    snprintf(vb, sizeof vb, "%d", b);
    const char *vals[2] = {va, vb};
    PGconn *pg = db_conn();
    if (!pg) return STORE_UNAVAILABLE;
    if (!res) return db_run_cmd(&pg, st, n, vals, NULL, affected);
    return db_run(&pg, st, n, vals, NULL, res);
}

/* run_ints() reading the count its first row holds into *count. */
static enum store_status count_ints(enum stmt st, int n, int a, int b, long *count)
{
    *count = 0;
    PGresult *res;
    enum store_status s = run_ints(st, n, a, b, NULL, &res);
    if (s != STORE_OK) return s;
    if (PQntuples(res) == 1) *count = db_long(res, 0, 0, 0);
    PQclear(res);
    return STORE_OK;
}

enum store_status store_retention_delete(int days, int batch, long *deleted)
{
    return count_ints(ST_RETENTION_DELETE, 2, days, batch, deleted);
}

enum store_status store_idem_purge(int batch, long *purged)
{
    *purged = 0;
    return run_ints(ST_IDEM_PURGE, 1, batch, 0, purged, NULL);
}

enum store_status store_lobbies_expired(int hours, int max, char (*ids)[AUTH_UUID_LEN + 1], int *n)
{
    *n = 0;
    PGresult *res;
    enum store_status s = run_ints(ST_LOBBIES_EXPIRED, 2, hours, max, NULL, &res);
    if (s != STORE_OK) return s;
    for (int r = 0; r < PQntuples(res) && *n < max; r++)
        snprintf(ids[(*n)++], AUTH_UUID_LEN + 1, "%s", PQgetvalue(res, r, 0));
    PQclear(res);
    return STORE_OK;
}
