/* store_analysis.h: the analysis of finished games (0036, store_analysis.c): read with its
 * job planned by the first read, stored once by the job's run. */
#ifndef API_STORE_ANALYSIS_H
#define API_STORE_ANALYSIS_H

#include "store.h"
#include "store_jobs.h"

/* What a read of a game's analysis found. */
enum store_analysis_state {
    STORE_ANALYSIS_NOT_FINISHED = 0, /* the game is not finished (nothing planned) */
    STORE_ANALYSIS_PENDING,          /* finished; its job is due or running */
    STORE_ANALYSIS_DONE              /* stored: *body holds it */
};

/*
 * The analysis of game `id` (a valid UUID): *state, and with STORE_ANALYSIS_DONE the body
 * (JSON text, malloc'd: free it) in *body (else NULL). A finished game without one gets its
 * job (kind "analysis", leased `lease_ms` a claim) written by this read if it has none:
 * every server's workers are woken. STORE_OK, STORE_NOT_FOUND (no such game) ...
 */
enum store_status store_analysis_get(const char *id, int lease_ms, enum store_analysis_state *state,
                                     char **body) NODISCARD;

/* Whether game `id` has its analysis stored, into *done (0 or 1). */
enum store_status store_analysis_done(const char *id, int *done) NODISCARD;

/* Stores `body` (JSON text) as the analysis of job `j`'s game, its run's CPU `cpu_ms`, and
 * removes `j` if it is still the one claimed, in one statement. A body stored already is
 * kept (the run is only counted). */
enum store_status store_analysis_put(const struct store_job *j, const char *body,
                                     long cpu_ms) NODISCARD;

#endif
