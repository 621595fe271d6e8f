/* batcher.h: the stored versions of games for reads, asked for in batches by one thread. */
#ifndef API_BATCHER_H
#define API_BATCHER_H

#include "nodiscard.h"
#include "req.h"
#include "store.h"

#define BATCHER_MAX 64 /* games asked for in one version query */

/*
 * Starts the batcher's thread: from then on the reads waiting for a version share one
 * query (up to BATCHER_MAX games in it), and each still sees every action committed
 * before it asked. Returns 0, or -1 when the thread cannot start (versions are then
 * asked for one by one). Call before the server takes requests.
 */
int batcher_start(void) NODISCARD;

/* Stops the thread once the queued questions are answered. Call after the server stopped
 * taking requests; a no-op when it does not run. */
void batcher_stop(void);

/* 1 while the thread runs (between batcher_start() and batcher_stop()). */
int batcher_running(void);

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

#endif
