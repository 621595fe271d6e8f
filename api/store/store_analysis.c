/* store_analysis.c: the analysis of finished games (0036) -- see store_analysis.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "store_analysis.h"
#include "store_db.h"

enum store_status store_analysis_get(const char *id, int lease_ms, enum store_analysis_state *state,
                                     char **body)
{
    *body = NULL;
    *state = STORE_ANALYSIS_NOT_FINISHED;
    PGresult *res;
    enum store_status s = db_row_of_int(ST_ANALYSIS_GET, id, lease_ms, &res);
    if (s != STORE_OK) return s;
    if (!PQgetisnull(res, 0, 1)) {
        *body = strdup(PQgetvalue(res, 0, 1));
        *state = STORE_ANALYSIS_DONE;
    } else if (strcmp(PQgetvalue(res, 0, 0), "finished") == 0) {
        *state = STORE_ANALYSIS_PENDING;
    }
    PQclear(res);
    return *state == STORE_ANALYSIS_DONE && !*body ? STORE_ERROR : STORE_OK;
}

enum store_status store_analysis_done(const char *id, int *done)
{
    PGresult *res;
    *done = 0;
    enum store_status s = db_row_of(ST_ANALYSIS_DONE, id, 0, &res);
    if (s != STORE_OK) return s;
    *done = db_long(res, 0, 0, 0) > 0;
    PQclear(res);
    return STORE_OK;
}

enum store_status store_analysis_put(const struct store_job *j, const char *body, long cpu_ms)
{
    PGconn *pg = db_conn();
    if (!pg) return STORE_UNAVAILABLE;
    char cpu[24], id[24], version[16];
    snprintf(cpu, sizeof cpu, "%ld", cpu_ms);
    snprintf(id, sizeof id, "%lld", j->id);
    snprintf(version, sizeof version, "%d", j->version);
    const char *vals[5] = {j->game, body, cpu, id, version};
    return db_run_cmd(&pg, ST_ANALYSIS_PUT, 5, vals, NULL, NULL);
}
