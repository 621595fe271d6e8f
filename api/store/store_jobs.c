/* store_jobs.c: the background jobs (0010): claiming due rows with a lease, and putting back
 * those with nothing to do or to be tried again. A game's rows are written by its commits
 * (STORE_JOBS_JSON in store.c); a job of no game (0027) by store_job_plan_free(). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libpq-fe.h>

#include "log.h"
#include "store.h"
#include "store_jobs.h"
#include "store_db.h"
#include "store_games.h"

#define OWNERS_PRUNE_S 600 /* each worker deletes the owners gone a day this often */

/* The array literal {a,b,...} of `kinds` (jobs.h's names: letters and '_', nothing to quote)
 * into `buf`. Returns 0, or -1 when it does not fit or a kind holds anything else. */
static int kinds_array(const char *const *kinds, int n, char *buf, size_t cap)
{
    size_t o = 0;
    if (cap < 3) return -1;
    buf[o++] = '{';
    for (int i = 0; i < n; i++) {
        size_t len = strlen(kinds[i]);
        if (o + len + 3 > cap) return -1;
        for (size_t k = 0; k < len; k++)
            if (!((kinds[i][k] >= 'a' && kinds[i][k] <= 'z') || kinds[i][k] == '_')) return -1;
        if (i) buf[o++] = ',';
        memcpy(buf + o, kinds[i], len);
        o += len;
    }
    buf[o++] = '}';
    buf[o] = '\0';
    return 0;
}

/* When this thread last deleted the owners not served for a day (seconds since the epoch). */
static _Thread_local time_t owners_pruned_at;

enum store_status store_job_claim(const char *const *kinds, int nkinds, int per_owner,
                                  struct store_job *out, int max, int *n)
{
    *n = 0;
    char list[256], lim[16], cap[16];
    if (kinds_array(kinds, nkinds, list, sizeof list)) return STORE_ERROR;
    snprintf(lim, sizeof lim, "%d", max);
    snprintf(cap, sizeof cap, "%d", per_owner > 0 ? per_owner : 1);
    PGconn *pg = db_conn();
    if (!pg) return STORE_UNAVAILABLE;
    time_t now = time(NULL);
    if (now - owners_pruned_at >= OWNERS_PRUNE_S) {
        owners_pruned_at = now;
        if (db_run_cmd(&pg, ST_JOB_OWNERS_PRUNE, 0, NULL, NULL, NULL) != STORE_OK)
            log_kv(LOG_WARN, "job owners not pruned", NULL);
    }
    const char *vals[3] = {lim, list, cap};
    PGresult *res;
    enum store_status s = db_run(&pg, ST_JOB_CLAIM, 3, vals, NULL, &res);
    if (s != STORE_OK) return s;
    for (int r = 0; r < PQntuples(res) && *n < max; r++) {
        struct store_job *j = &out[*n];
        j->id = (long long)db_long(res, r, 0, -1);
        snprintf(j->game, sizeof j->game, "%s", PQgetvalue(res, r, 1));
        snprintf(j->kind, sizeof j->kind, "%s", PQgetvalue(res, r, 2));
        snprintf(j->subject, sizeof j->subject, "%s", PQgetvalue(res, r, 3));
        j->version = (int)db_long(res, r, 4, -1);
        j->attempts = (int)db_long(res, r, 5, 0);
        (*n)++;
    }
    PQclear(res);
    return STORE_OK;
}

/* Runs `st` (ST_JOB_DROP, ST_JOB_DROP_FREE, or ST_JOB_RETRY with `delay_ms`) on job `j`. */
static enum store_status job_update(enum stmt st, const struct store_job *j, int delay_ms)
{
    PGconn *pg = db_conn();
    if (!pg) return STORE_UNAVAILABLE;
    char id[24], version[16], delay[16];
    snprintf(id, sizeof id, "%lld", j->id);
    snprintf(version, sizeof version, "%d", j->version);
    snprintf(delay, sizeof delay, "%d", delay_ms);
    const char *vals[3] = {id, version, delay};
    return db_run_cmd(&pg, st, st == ST_JOB_RETRY ? 3 : 2, vals, NULL, NULL);
}

enum store_status store_job_drop(const struct store_job *j)
{
    return job_update(ST_JOB_DROP, j, 0);
}

enum store_status store_job_retry(const struct store_job *j, int delay_ms)
{
    return job_update(ST_JOB_RETRY, j, delay_ms);
}

enum store_status store_job_drop_free(const struct store_job *j)
{
    return job_update(ST_JOB_DROP_FREE, j, 0);
}

enum store_status store_job_plan_free(const char *kind, const char *subject, int due_ms,
                                      int lease_ms, const struct store_job *claimed)
{
    PGconn *pg = db_conn();
    if (!pg) return STORE_UNAVAILABLE;
    char due[16], lease[16], version[16];
    snprintf(due, sizeof due, "%d", due_ms);
    snprintf(lease, sizeof lease, "%d", lease_ms);
    snprintf(version, sizeof version, "%d", claimed ? claimed->version : 0);
    const char *vals[5] = {kind, subject ? subject : "", due, lease, claimed ? version : NULL};
    return db_run_cmd(&pg, ST_JOB_FREE_PLAN, 5, vals, NULL, NULL);
}
