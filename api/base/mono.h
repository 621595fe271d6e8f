/* mono.h: the monotonic clock and a timed wait on a condition variable. */
#ifndef API_MONO_H
#define API_MONO_H

#include <pthread.h>

/* Monotonic milliseconds (CLOCK_MONOTONIC: never set back, from an arbitrary start). */
long long mono_ms(void);

/* Monotonic microseconds, as mono_ms(). */
long long mono_us(void);

/* Waits on `cond` (with `lock` held, as pthread_cond_timedwait() wants) until it is
 * signalled or `ms` milliseconds (under 1000) have passed, whichever comes first. */
void mono_wait_ms(pthread_cond_t *cond, pthread_mutex_t *lock, long ms);

#endif
