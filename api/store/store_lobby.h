/* store_lobby.h: the lobby's lists (migrations/0035): listed games by status, newest first,
 * paged by a cursor, as JSON built by PostgreSQL (LobbyGame in openapi.yaml). */
#ifndef API_STORE_LOBBY_H
#define API_STORE_LOBBY_H

#include "nodiscard.h"
#include "store.h"

#define STORE_LOBBY_CURSOR_MAX 64 /* bytes of a cursor: "<microseconds>.<uuid>" and its NUL */

/* Where a page begins: after the entry of a cursor, or (after_us < 0) at the newest. */
struct store_lobby_after {
    long long after_us;               /* its created_at in microseconds since 1970, or -1 */
    char after_id[AUTH_UUID_LEN + 1]; /* its id (with after_us) */
};

/* One page of a lobby list. */
struct store_lobby_page {
    char *entries;                            /* JSON array of the games (malloc'd) */
    char next_cursor[STORE_LOBBY_CURSOR_MAX]; /* the cursor of the next page, or "": the last */
};

/*
 * The listed games of status `status` ("waiting": open tables, "active": games to watch)
 * and of ruleset `ruleset` (NULL: any) after `after`, `limit` at most, into `page` (its
 * entries freed by the caller). STORE_OK or a failure (then nothing to free).
 */
enum store_status store_lobby_page(const char *status, const char *ruleset,
                                   const struct store_lobby_after *after, int limit,
                                   struct store_lobby_page *page) NODISCARD;

#endif
