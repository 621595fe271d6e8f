/* store_jobs.h: claimed background jobs (0010, store_jobs.c); commits write them
 * (store_games.h: struct store_jobs). */
#ifndef API_STORE_JOBS_H
#define API_STORE_JOBS_H

#include "store.h"

#define STORE_JOB_SUBJECT_MAX 63 /* bytes of a job's subject (0027) */

/* A claimed background job (0010, store_jobs.c). */
struct store_job {
    long long id;                            /* its row (0027) */
    char game[AUTH_UUID_LEN + 1];            /* the game's id, or "": a job of no game (0027) */
    char kind[24];                           /* its kind (jobs.h) */
    char subject[STORE_JOB_SUBJECT_MAX + 1]; /* what a job of no game is about, or "" */
    int version;  /* the game's version it was written for (a job of no game: its writes) */
    int attempts; /* claims so far, this one included */
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

/*
 * Jobs of no game (0027): the one job of kind `kind` about `subject` ("" for a kind with
 * one job, such as the retention sweep) due in `due_ms`, leased `lease_ms` a claim, written
 * if missing; every server's workers are woken. `claimed` is the job as a run of it claimed
 * it (that run plans its own next time: the due time is set as asked), or NULL for any
 * other writer (a POST that needs the job soon), which only brings the job forward and,
 * while a run holds the job, leaves its claim alone: the job runs again when that run
 * ends, never twice at once. Either way the job's version moves on, so that a run that
 * began before this write neither drops nor retries it: the job runs again.
 */
enum store_status store_job_plan_free(const char *kind, const char *subject, int due_ms,
                                      int lease_ms, const struct store_job *claimed) NODISCARD;

/* A run of job `j` of no game found nothing to do: removes the job, unless another writer
 * (store_job_plan_free without `claimed`) moved it on during the run: then the job is
 * released to run when that writer asked. */
enum store_status store_job_drop_free(const struct store_job *j) NODISCARD;

#endif
