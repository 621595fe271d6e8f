/* store_jobs.h: claimed background jobs (0010, store_jobs.c); commits write them
 * (store_games.h: struct store_jobs). */
#ifndef API_STORE_JOBS_H
#define API_STORE_JOBS_H

#include "store.h"

/* A claimed background job (0010, store_jobs.c). */
struct store_job {
    char game[AUTH_UUID_LEN + 1]; /* the game's id */
    char kind[24];                /* its kind (jobs.h) */
    int version;                  /* the game's version it was written for */
    int attempts;                 /* claims so far, this one included */
};

/* `fn` is called after each commit that wrote a job (to wake the job workers). */
void store_set_job_hook(void (*fn)(void));

/*
 * Claims up to `max` due jobs of the `nkinds` kinds in `kinds` (rows other servers hold are
 * skipped), each leased for its lease_ms: it is due again when the lease runs out unless a
 * commit rewrites or removes it, or store_job_drop() or store_job_retry() is called.
 * Fair shares (0020): jobs whose games one address created (games.owner) are passed over
 * while `per_owner` of them of these kinds run (on any server), and the owner served
 * longest ago goes first. Fills out[0..*n).
 */
enum store_status store_job_claim(const char *const *kinds, int nkinds, int per_owner,
                                  struct store_job *out, int max, int *n) NODISCARD;

/* Removes job `j` if it is still the one claimed (same version): work with nothing to do. */
enum store_status store_job_drop(const struct store_job *j) NODISCARD;

/* Makes job `j`, if still the one claimed, due again in `delay_ms`, its lease released. */
enum store_status store_job_retry(const struct store_job *j, int delay_ms) NODISCARD;

#endif
