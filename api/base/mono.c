/* mono.c: the monotonic clock and a timed wait on a condition variable (see mono.h). */
#include "mono.h"

#include <time.h>

long long mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

long long mono_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

void mono_wait_ms(pthread_cond_t *cond, pthread_mutex_t *lock, long ms)
{
    /* The condition variables are the default kind, which time out by CLOCK_REALTIME. */
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_nsec += ms * 1000000L;
    if (ts.tv_nsec >= 1000000000L) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000L;
    }
    pthread_cond_timedwait(cond, lock, &ts);
}
