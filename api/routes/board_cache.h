/* board_cache.h: the leaderboard's answers kept a moment (issue 25: a page's p99 under
 * 20 ms). A page is one walk of an index (about 1 ms of PostgreSQL's time, 300 buffers with
 * the players' names), and on a busy machine its p99 is the wait for a core of the server's
 * thread and the database's backend in turn; a page asked again within the cache's time is
 * answered from memory, with no query. The key is the request's whole meaning (pool,
 * people or all, limit, cursor); an answer is never older than the time given to
 * board_cache_init() (LEADERBOARD_CACHE_MS), on each server alone. */
#ifndef API_BOARD_CACHE_H
#define API_BOARD_CACHE_H

#include <stddef.h>

#include "req.h"

#define BOARD_CACHE_SLOTS   64  /* answers kept at most (the oldest goes first) */
#define BOARD_CACHE_KEY_MAX 256 /* bytes of a key with its NUL; longer keys are not kept */

/* Keeps answers `ttl_ms` milliseconds (0: keeps none). Call before the server's threads
 * start; callable again (tests). */
void board_cache_init(int ttl_ms);

/* Frees what the cache holds. */
void board_cache_shutdown(void);

/* Answers 200 with a copy of the answer kept for `key` when it is younger than the cache's
 * time: 1; else 0 (resp untouched). */
int board_cache_get(const char *key, struct api_response *resp);

/* Keeps a copy of `len` bytes of `body`, the 200 answer for `key` (unless the cache is
 * off, the key too long or memory short: then nothing). */
void board_cache_put(const char *key, const char *body, size_t len);

#endif
