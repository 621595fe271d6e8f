/* jobs.h: background work of games, claimed from PostgreSQL by worker threads of their own:
 * a registry of kinds (computer players' turns, clocks, retention), the plan each commit
 * writes, and an in-memory queue of tasks (hints) for a worker of its own.
 *
 * A job is a row of the table jobs (0010): at most one per game and kind (a job of no game,
 * 0027: one per kind and subject, written by store_job_plan_free), a game's written or removed
 * by the transaction of the commit that made it due (game_commit asks jobs_plan()), so no
 * due work is lost between an action and its job. Any server's workers claim due rows (FOR
 * UPDATE SKIP LOCKED) with a lease; a server killed while it holds one leaves the row to be
 * claimed again once the lease has run out. What a job does to its game goes through the
 * game service (game/service.h: game_play, game_commit_change) and its version-checked
 * commit, whose transaction rewrites or removes the row: of two
 * attempts at the same turn one commits and the other finds the game moved on, so a job
 * acts exactly once. Workers sleep until a commit writes a job (this server's: jobs_kick;
 * any server's: NOTIFY on STORE_JOBS_CHANNEL, which a listener thread of each server
 * LISTENs to), and look again every JOBS_POLL_MS in any case (leases that ran out,
 * retries, notifications lost while the listener reconnected).
 *
 * Fair shares (issue 29, findings 2 and 4): each kind belongs to a lane (enum jobs_lane)
 * with workers of its own, so that a deadline never waits behind a computer player's
 * thinking, and neither waits behind a hint. A claim takes one job: of the games one
 * address created (games.owner, 0020) at most JOBS_PER_ADDRESS jobs of a lane run at once
 * on all servers, and the address served longest ago goes first (store_job_claim).
 */
#ifndef API_JOBS_H
#define API_JOBS_H

#include <stddef.h>

#include "cfg.h"
#include "job_kinds.h"
#include "nodiscard.h"

/* An in-memory task for the task worker (not stored: it dies with the server). */
struct jobs_task {
    void (*run)(struct jobs_task *t); /* runs on the task worker; owns t from then on */
    struct jobs_task *next;           /* the queue's link (jobs.c) */
};

/* Queues task `t` for the task worker, a thread of its own that claims no stored job (so
 * a task never delays a deadline or a computer player's turn). Returns 0, or -1 when no
 * worker runs (t is not taken). Thread-safe. The caller bounds what it queues. */
int jobs_submit(struct jobs_task *t) NODISCARD;

/* 1 when workers run (jobs_submit() takes tasks). */
int jobs_running(void);

/* Starts the workers: cfg->bot_workers threads of the slow lane, one of the fast lane, the
 * task worker and cfg->analysis_workers threads of the analysis lane (none of them when
 * bot_workers is 0). Returns 0 or -1 (logged). */
int jobs_start(const struct cfg *cfg) NODISCARD;

/* Wakes the workers to claim due jobs (after a commit that wrote one). Thread-safe, cheap. */
void jobs_kick(void);

/* Stops the workers and joins them; tasks still queued are run first (they answer fast
 * when stopping: jobs_stopping()). Claimed jobs left are due again when their lease ends. */
void jobs_stop(void);

/*
 * Begins the drain (SIGTERM): workers claim no more jobs, and those they claimed but have
 * not begun go back, due at once for any server; the job each one runs goes on to its
 * commit. Tasks are still run. Thread-safe.
 */
void jobs_drain(void);

/* Workers claiming or running stored jobs now (0: every claimed job is done or back). */
int jobs_busy(void);

/* 1 once jobs_stop() was called. */
int jobs_stopping(void);

/* 1 once jobs_drain() or jobs_stop() was called: a long job (an analysis) gives its row
 * back (JOBS_RETRY) rather than hold up the drain. Thread-safe. */
int jobs_draining(void);

#endif
