/* batcher.h: requests to the database that wait together, sent together: the stored
 * versions of games for reads (one thread), and the commits of several games in one
 * statement (a group commit; one or more threads). */
#ifndef API_BATCHER_H
#define API_BATCHER_H

#include "nodiscard.h"
#include "req.h"
#include "store.h"
#include "store_games.h"

#define BATCHER_MAX         64 /* requests in one batch at most */
#define BATCHER_COMMITS_MAX 32 /* commits in one statement at most */

/* A request waiting in a batch (batcher_commit_async). */
struct batch_req;

/*
 * Starts the threads: one for the reads' versions, from then on asked for in one query for
 * all the reads waiting (up to BATCHER_MAX games in it), each still seeing every action
 * committed before it asked; and `commit_threads` (0 .. 8) for the commits handed to
 * batcher_commit_async(). Returns 0, or -1 when a thread cannot start (versions are then
 * asked for one by one, commits made one by one). Call before the server takes requests.
 */
int batcher_start(int commit_threads) NODISCARD;

/* Stops the threads once the queued requests are done. Call after the server stopped
 * taking requests; a no-op when they do not run. */
void batcher_stop(void);

/* 1 while the versions' thread runs (between batcher_start() and batcher_stop()). */
int batcher_running(void);

/* 1 while commits are batched. */
int batcher_commits_running(void);

/*
 * The stored version of game `id`, waiting (the calling thread blocks) for the batch it
 * is asked in; asked directly when the batcher does not run. Returns STORE_OK with
 * *version set (-1: no such game), or the storage failure.
 */
enum store_status batcher_version(const char *id, int *version) NODISCARD;

/*
 * The same for a request that can wait suspended (`a`; the batcher must run): the first
 * call queues the question and returns -1 (suspend until a->wake; call again then), as
 * does a call while it is not answered yet; then a store_status (STORE_OK: *version set,
 * -1 for no such game). a->pending and a->cancel hold the question meanwhile (a->cancel
 * drops it, e.g. when the request ends first).
 */
int batcher_version_async(const char *id, struct api_async *a, int *version) NODISCARD;

/*
 * Queues the commit of game `id` whose row `row` store_commit_row() made (taken over:
 * freed by the batcher) for the next batch of commits, `epoch` as store_commit.epoch; the
 * request `a` is woken (a->wake) once it is done: batcher_result() then says how. NULL when
 * commits are not batched (or memory ran out): commit it directly.
 */
struct batch_req *batcher_commit_async(const char *id, struct store_row *row, unsigned epoch,
                                       struct api_async *a);

/*
 * How request `r` went: -1 while it waits; else its store_status (a commit: STORE_OK,
 * STORE_CONFLICT when the game moved on from its version, or a failure), `r` freed, and
 * *out (when not NULL) set to the lane's answer.
 */
int batcher_result(struct batch_req *r, long *out) NODISCARD;

/* batcher_result(), the calling thread blocked until `r` is done (a request that cannot wait
 * suspended any longer: the server stops). */
int batcher_wait(struct batch_req *r, long *out) NODISCARD;

/* Drops request `r` whose waiter ended before its result (freed now or once its batch is
 * done; a commit still queued is never sent). */
void batcher_cancel(struct batch_req *r);

#endif
