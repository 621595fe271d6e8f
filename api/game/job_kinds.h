/* job_kinds.h: the kinds of background work a game may need (computer players' turns,
 * clocks, retention), and the plan each commit writes (game_commit asks jobs_plan()). The
 * workers that claim and run the jobs are api/jobs/ (jobs.h); a kind is registered at
 * start-up by the module that runs it, so the game service plans work without knowing
 * who does it. */
#ifndef API_JOB_KINDS_H
#define API_JOB_KINDS_H

#include "game.h"
#include "nodiscard.h"
#include "store.h"
#include "store_games.h"
#include "store_jobs.h"

#define JOBS_JSON_MAX  STORE_JOBS_JSON_MAX /* bytes of the jobs' text of one commit */
#define JOBS_MAX_KINDS 12                  /* kinds registered at most */

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
    JOBS_LANE_ANALYSIS, /* the analysis of finished games (seconds of CPU each, asked by
                           people): ANALYSIS_WORKERS threads, at most one per CPU */
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

/* The registered kind named `name`, or NULL. */
const struct jobs_kind *jobs_kind_of(const char *name);

/* The names of the registered kinds of `lane` (at most JOBS_MAX_KINDS) into `names`.
 * Returns how many. */
int jobs_kinds_of_lane(enum jobs_lane lane, const char *names[JOBS_MAX_KINDS]);

#endif
