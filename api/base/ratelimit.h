/* ratelimit.h: a token bucket per client address, kept in a fixed-size table: the
 * limiter of all requests (the ratelimit_init/_take functions, off by default) and any
 * other limiter (a struct ratelimit, e.g. the one of creations, routes_ops.c). */
#ifndef API_RATELIMIT_H
#define API_RATELIMIT_H

#include "nodiscard.h"

struct sockaddr;

/* A limiter: a table of token buckets by address. */
struct ratelimit;

/*
 * A limiter that lets each client address make `per_second` requests a second on average
 * (a fraction is fine: 0.5 is one every 2 s) and `burst` at once. The table holds `slots`
 * addresses (rounded up to a multiple of 8) and never grows: when it is full, the address
 * seen least recently in the new one's set of 8 is forgotten (and would start again with a
 * full bucket). NULL when out of memory, or when per_second is not above 0 (no limit:
 * ratelimit_take_from(NULL, ...) lets every request pass). ratelimit_delete() it.
 */
struct ratelimit *ratelimit_new(double per_second, int burst, int slots);

/* Frees `rl` (NULL is fine). */
void ratelimit_delete(struct ratelimit *rl);

/*
 * Takes a token of `rl` for the client at `addr` (IPv4 or IPv6; other families, NULL and
 * a NULL `rl` always pass). Returns 0 when the request may go on, else the whole seconds
 * (1 or more) after which a token will be there again: answer 429 with that Retry-After.
 * Thread-safe.
 */
int ratelimit_take_from(struct ratelimit *rl, const struct sockaddr *addr);

/* ratelimit_take_from() for a request that weighs `n` tokens (at least 1, at most the
 * burst: a heavier one waits for a full bucket). */
int ratelimit_take_n(struct ratelimit *rl, const struct sockaddr *addr, int n);

/* ratelimit_take_from() that takes nothing: 0 when a token is there now, else the wait. */
int ratelimit_peek(struct ratelimit *rl, const struct sockaddr *addr);

/*
 * Sets up the limiter of all requests (http.c): `per_second` requests a second per
 * address on average and `burst` at once (per_second 0: no limit, every request passes),
 * `slots` addresses, as ratelimit_new(). Returns 0, or -1 when out of memory.
 */
int ratelimit_init(int per_second, int burst, int slots) NODISCARD;

/* Frees the table of the limiter of all requests (it is off afterwards). */
void ratelimit_free(void);

/* ratelimit_take_from() on the limiter of all requests. Thread-safe. */
int ratelimit_take(const struct sockaddr *addr);

#endif
