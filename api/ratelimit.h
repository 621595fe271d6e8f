/* ratelimit.h: a token bucket per client address, kept in a fixed-size table. */
#ifndef API_RATELIMIT_H
#define API_RATELIMIT_H

#include "nodiscard.h"

struct sockaddr;

/*
 * Sets up the limiter: each client address may make `per_second` requests a second on
 * average and `burst` at once (per_second 0: no limit, every request passes). The table
 * holds `slots` addresses (rounded up to a multiple of 8) and never grows: when it is full,
 * the address seen least recently in the new one's set of 8 is forgotten (and would start
 * again with a full bucket). Returns 0, or -1 when out of memory.
 */
int ratelimit_init(int per_second, int burst, int slots) NODISCARD;

/* Frees the table (the limiter is off afterwards). */
void ratelimit_free(void);

/*
 * Takes a token for the client at `addr` (IPv4 or IPv6; other families and NULL always
 * pass). Returns 0 when the request may go on, else the whole seconds (1 or more) after
 * which a token will be there again: answer 429 with that Retry-After. Thread-safe.
 */
int ratelimit_take(const struct sockaddr *addr);

#endif
