/* jobs.h: background work of games, claimed from PostgreSQL by worker threads of their own:
 * a registry of kinds (computer players' turns, clocks, retention), the plan each commit
 * writes, and an in-memory queue of tasks (hints) for a worker of its own.
 *
 * A job is a row of the table jobs (0010): at most one per game and kind, written or removed
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
#include "game.h"
#include "nodiscard.h"
#include "store.h"

#define JOBS_JSON_MAX  STORE_JOBS_JSON_MAX /* bytes of the jobs' text of one commit */
#define JOBS_MAX_KINDS 8                   /* kinds registered at most */

/* What a kind wants for a game after a state (jobs_kind.plan). */
enum jobs_plan {
    JOBS_PLAN_NONE = 0, /* nothing to say: the game has no such work (its row, if any, stays) */
    JOBS_PLAN_REMOVE,   /* remove the game's job of the kind */
    JOBS_PLAN_DUE       /* write it, due in *due_ms, leased *lease_ms per claim */
};

/* How running a claimed job ended (jobs_kind.run). */
enum jobs_result {
    JOBS_DONE = 0, /* handled: a commit rewrote or removed the row, or another one did */
    JOBS_DROP,     /* nothing to do: remove the row if it is still the one claimed */
    JOBS_RETRY     /* failed for now (database away ...): due again after a backoff */
};

/*
 * Which workers claim a kind (issue 29, findings 2 and 4): work that must be on time never
 * waits behind work that thinks. Each lane has threads of its own; hints (jobs_submit) have
 * one more of their own, so that neither lane ever waits behind a hint.
 */
enum jobs_lane {
    JOBS_LANE_SLOW = 0, /* thinking and sweeps (an mcts turn, retention): BOT_WORKERS threads */
    JOBS_LANE_FAST,     /* what takes no thought (deadlines, draws, random and greedy moves,
                           resignations): one thread */
    JOBS_NLANES         /* the number of lanes */
};

/* A kind of job. Registered before jobs_start(); read-only afterwards. */
struct jobs_kind {
    const char *name; /* stored in jobs.kind: lower-case letters and '_' */
    /* What the game whose state is `g` with seats `seats` (by seat, g->nplayers) needs of
     * this kind: called by every commit on any thread (keep it cheap; no I/O). NULL: a
     * kind that writes its jobs itself (clocks, the retention sweep). */
    enum jobs_plan (*plan)(const struct cc_game *g, const struct store_player *seats, int *due_ms,
                           int *lease_ms);
    /* Runs job `j` on a worker thread (which has its own database connection). */
    enum jobs_result (*run)(const struct store_job *j);
    enum jobs_lane lane; /* the workers that claim it */
};

/* Adds kind `k` (static storage) to the registry. Returns 0, or -1 when it is full. */
int jobs_register(const struct jobs_kind *k) NODISCARD;

/*
 * Every registered kind's plan for state `g` with seats `seats`, added to `out` (its entries
 * before kept). Returns the entries added (0: no kind has anything to say).
 */
int jobs_plan(const struct cc_game *g, const struct store_player *seats, struct store_jobs *out);

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

/* Starts the workers: cfg->bot_workers threads of the slow lane, one of the fast lane and
 * the task worker (none of them when bot_workers is 0). Returns 0 or -1 (logged). */
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

#endif
