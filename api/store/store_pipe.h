/* store_pipe.h: statements sent one after another without waiting for each answer (libpq's
 * pipeline mode), their answers read and checked together at the end.
 *
 * Why: a statement that waits for its answer costs a round trip to PostgreSQL, and on a
 * busy machine a round trip is two context switches that may each wait for a CPU. Creating
 * a game is about ten statements; a tournament's round or a matchmaker's batch is dozens of
 * games. Sent in a pipeline, the backend runs them back to back and the thread waits once.
 * Used inside a transaction (db_begin ... commit): a check that fails, or an error, leaves
 * the transaction to be rolled back, so nothing a pipeline wrote stays when one of its
 * statements did not go as wanted. */
#ifndef API_STORE_PIPE_H
#define API_STORE_PIPE_H

#include <libpq-fe.h>

#include "nodiscard.h"
#include "store_db.h"

/* What a statement's answer must be, else the pipeline's outcome is `miss`. */
enum db_pipe_want {
    PIPE_DONE,       /* ran without error */
    PIPE_CHANGED,    /* changed exactly `value` rows */
    PIPE_FIRST_IS,   /* one row whose first column is `value` */
    PIPE_FIRST_ADDS, /* its first column (of one row; none: 0) added to *sum */
    PIPE_KEEP,       /* its result handed to *keep (the caller PQclears it) */
    PIPE_PREPARE,    /* (db_pipe_send's own) the statement's preparation, at its first use */
};

struct db_pipe_check {
    enum db_pipe_want want;
    long value;
    long *sum;
    enum store_status miss;
    PGresult **keep; /* PIPE_KEEP: where the result goes (NULL there until it came) */
};

/* The checks in use: any answer; exactly one row changed, else `miss`; the count of its
 * first column added to *sum; the result kept in *keep. */
static inline struct db_pipe_check db_pipe_ran(void)
{
    return (struct db_pipe_check){.want = PIPE_DONE};
}
static inline struct db_pipe_check db_pipe_one_row(enum store_status miss)
{
    return (struct db_pipe_check){.want = PIPE_CHANGED, .value = 1, .miss = miss};
}
static inline struct db_pipe_check db_pipe_counted(long *sum)
{
    return (struct db_pipe_check){.want = PIPE_FIRST_ADDS, .sum = sum};
}
static inline struct db_pipe_check db_pipe_kept(PGresult **keep)
{
    return (struct db_pipe_check){.want = PIPE_KEEP, .keep = keep};
}

/* A pipeline on a connection in a transaction. */
struct db_pipe {
    PGconn *pg;
    struct db_pipe_check *checks; /* one per statement sent, in order */
    enum stmt *stmts;
    int n, cap;
    enum store_status failed; /* the first failure while sending, or STORE_OK */
};

/* Opens a pipeline on `pg` (in a transaction, nothing else pending). STORE_OK or a failure. */
enum store_status db_pipe_open(struct db_pipe *p, PGconn *pg) NODISCARD;

/* Sends prepared statement `st` (parameters as db_run's) into the pipeline with what its
 * answer must be. A failure is kept for db_pipe_close(). */
void db_pipe_send(struct db_pipe *p, enum stmt st, int n, const char *const *vals, const int *lens,
                  struct db_pipe_check want);

/* Marks the pipeline failed with `s` (a failure outside it, such as an answer that could
 * not be sealed): nothing more is sent, and db_pipe_close() answers `s`. */
void db_pipe_fail(struct db_pipe *p, enum store_status s);

/* Ends the pipeline: waits for every answer, checks each in order, leaves pipeline mode.
 * Returns STORE_OK, the first failing statement's mapped failure, or the first check's
 * `miss`. The connection is dropped (as db_run drops one) when it was lost. */
enum store_status db_pipe_close(struct db_pipe *p) NODISCARD;

#endif
