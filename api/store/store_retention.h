/* store_retention.h: the retention sweep's statements (0017, store_retention.c). */
#ifndef API_STORE_RETENTION_H
#define API_STORE_RETENTION_H

#include "store.h"

/*
 * Deletes up to `batch` games that ended (finished or aborted) more than `days` days ago,
 * oldest first, with every row of theirs (seats, actions, events, webhooks and their
 * deliveries, jobs), in one transaction that skips games another sweep holds (FOR UPDATE
 * SKIP LOCKED): two sweeps never delete the same game. *deleted gets the games deleted.
 */
enum store_status store_retention_delete(int days, int batch, long *deleted) NODISCARD;

/*
 * The ids of up to `max` games still waiting for open seats that were created more than
 * `hours` hours ago, oldest first, into ids[0..*n) (each AUTH_UUID_LEN + 1 bytes).
 */
enum store_status store_lobbies_expired(int hours, int max, char (*ids)[AUTH_UUID_LEN + 1],
                                        int *n) NODISCARD;

/* Deletes up to `batch` idempotent answers older than 24 hours; *purged gets how many. */
enum store_status store_idem_purge(int batch, long *purged) NODISCARD;

#endif
