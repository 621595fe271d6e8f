/* analysis_run.h: the job kind "analysis" (analysis_run.c): the review of every placement
 * of a finished game (core/bot_analysis.h), planned by the first GET /v1/games/{id}/analysis,
 * run by the analysis lane's workers (at most one a CPU), stored once with the game. */
#ifndef API_ANALYSIS_RUN_H
#define API_ANALYSIS_RUN_H

#include "cfg.h"
#include "nodiscard.h"

/* Takes the budget and lease of `cfg` and registers the kind (before jobs_start). Returns
 * 0 or -1. */
int analysis_run_init(const struct cfg *cfg) NODISCARD;

/* The lease of a claim of an analysis job (ANALYSIS_LEASE_MS), for the read that plans it. */
int analysis_lease_ms(void);

#endif
