/* retention.h: the retention sweep (issue 16, item 3): finished and aborted games older than
 * RETENTION_DAYS deleted with every row of theirs, lobbies (waiting games) older than
 * LOBBY_EXPIRY_HOURS aborted with a game_expired event, and idempotent answers past their
 * 24 hours deleted; by whichever server's job workers claim the sweep's job (jobs.h, kind
 * "retention", one row that is no game's: game_id NULL, 0027), in batches of RETENTION_BATCH.
 *
 * Exactly once with any number of servers: the job's lease lets one server at a time run
 * it, and each batch is one statement that skips the games another sweep holds (FOR UPDATE
 * SKIP LOCKED), so two sweeps never delete the same game even when a lease ran out; an
 * expiry is a commit guarded by the game's version like every action. A run does one batch
 * of each and plans the job again: while a batch came back full, after a pause as long as
 * the run took (the sweep has at most about half of one database connection), else after
 * RETENTION_INTERVAL seconds. A batch locks only the games it deletes, which nobody plays.
 */
#ifndef API_RETENTION_H
#define API_RETENTION_H

#include "cfg.h"
#include "nodiscard.h"

#define RETENTION_LEASE_MS 60000 /* one claim of the sweep's job holds it this long */

/* Takes the settings of `cfg` and registers the job kind "retention" (before jobs_start).
 * Returns 0 or -1. */
int retention_init(const struct cfg *cfg) NODISCARD;

#endif
