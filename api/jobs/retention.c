/* retention.c: the retention sweep, the job kind "retention" -- see retention.h. */
#include "retention.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/service.h"
#include "games.h"
#include "jobs.h"
#include "log.h"
#include "metrics.h"
#include "mono.h"
#include "store.h"
#include "store_games.h"
#include "store_jobs.h"
#include "store_retention.h"

#define EXPIRE_MAX 100 /* lobbies one run expires at most (each is a commit of its own) */

static int days;        /* RETENTION_DAYS, 0: never */
static int hours;       /* LOBBY_EXPIRY_HOURS, 0: never */
static int batch;       /* RETENTION_BATCH */
static int interval_ms; /* RETENTION_INTERVAL in ms */

/*
 * Aborts lobby `id` if it is still waiting: one commit of events only (a game_expired
 * event, status aborted), guarded by the version it was read at. Returns 1 when this commit
 * expired it, 0 when there was nothing to do (another server did, the last seat was taken
 * meanwhile), -1 when it failed.
 */
static int expire_one(const char *id)
{
    enum games_fail why;
    struct api_game *ag = games_fetch(id, GAMES_DB, -1, &why);
    if (!ag) return why == GAMES_NOT_FOUND ? 0 : -1;
    int rc = 0;
    if (ag->row.state != STORE_WAITING) goto out;
    char events[128];
    snprintf(events, sizeof events, "[{\"seq\":%d,\"type\":\"game_expired\",\"hours\":%d}]",
             ag->row.last_seq + 1, hours);
    /* No action: the version moves on as for every commit of events. */
    enum game_ending ends = GAME_ENDS_EXPIRED;
    struct game_change ch = {.events_json = events, .nev = 1, .seat = 0, .ends = &ends};
    enum store_status ss;
    enum game_outcome gc = game_commit_change(ag, &ch, GAME_BY_SERVER, &ss);
    if (gc == GAME_COMMITTED) {
        log_kv(LOG_INFO, "lobby expired", "game", id, NULL);
        rc = 1;
    } else if (gc != GAME_CONFLICT) {
        rc = -1; /* (a conflict: it moved on: a join, an abort, another server's expiry) */
    }
out:
    games_free(ag);
    return rc;
}

/* jobs_kind.run: one batch of each kind of work, then the job planned again. */
static enum jobs_result sweep_run(const struct store_job *j)
{
    if (j->game[0] || j->subject[0]) return JOBS_DROP; /* one job, of no game (0027) */
    long long t0 = mono_us();
    struct metrics_sweep m = {0};
    int more = 0, failed = 0;
    if (hours > 0) {
        char(*ids)[AUTH_UUID_LEN + 1] = malloc(EXPIRE_MAX * sizeof *ids);
        int n = 0;
        if (!ids || store_lobbies_expired(hours, EXPIRE_MAX, ids, &n) != STORE_OK) failed = 1;
        for (int i = 0; i < n; i++) {
            int r = expire_one(ids[i]);
            if (r > 0) m.lobbies++;
            if (r < 0) failed = 1;
        }
        if (n == EXPIRE_MAX) more = 1;
        free(ids);
    }
    if (days > 0) {
        if (store_retention_delete(days, batch, &m.games) != STORE_OK) failed = 1;
        if (m.games >= batch) more = 1;
    }
    if (store_idem_purge(batch, &m.idempotency) != STORE_OK) failed = 1;
    if (m.idempotency >= batch) more = 1;
    m.usec = mono_us() - t0;
    metrics_sweep(&m);
    if (m.games || m.lobbies || m.idempotency) {
        char g[24], l[24], k[24], ms[24];
        snprintf(g, sizeof g, "%ld", m.games);
        snprintf(l, sizeof l, "%ld", m.lobbies);
        snprintf(k, sizeof k, "%ld", m.idempotency);
        snprintf(ms, sizeof ms, "%lld", m.usec / 1000);
        log_kv(more ? LOG_DEBUG : LOG_INFO, "retention batch", "games", g, "lobbies", l,
               "idempotency", k, "ms", ms, NULL);
    }
    if (failed) return JOBS_RETRY;
    /* Full batches: the next one after a pause as long as this run took (so the sweep takes
     * at most about half of one database connection's time, whatever the machine), and at
     * the workers' next look (JOBS_POLL_MS) at the earliest, which leaves the other jobs
     * their turn between batches. */
    int pause = (int)(m.usec / 1000);
    if (store_job_plan_free("retention", "", more ? pause : interval_ms, RETENTION_LEASE_MS, j) !=
        STORE_OK)
        return JOBS_RETRY;
    return JOBS_DONE;
}

/* The sweep plans itself (sweep_run): no commit of a game does. The slow lane: a batch never
 * delays a deadline. */
static const struct jobs_kind sweep_kind = {"retention", NULL, sweep_run, JOBS_LANE_SLOW};

int retention_init(const struct cfg *cfg)
{
    days = cfg->retention_days;
    hours = cfg->lobby_expiry_hours;
    batch = cfg->retention_batch;
    interval_ms = cfg->retention_interval * 1000;
    return jobs_register(&sweep_kind);
}
