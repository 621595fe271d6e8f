/* idle_run.h: running a long computation (a computer player's search) on a thread of the
 * lowest CPU priority, so that it only ever takes CPU time nothing else wants. */
#ifndef API_IDLE_RUN_H
#define API_IDLE_RUN_H

#include "nodiscard.h"

/*
 * Calls fn(arg) on a new thread scheduled SCHED_IDLE (Linux; where that is refused, at
 * niceness 19) and returns once it has returned. The caller's own thread keeps its
 * priority. When no thread can be started, calls fn(arg) on the caller's thread. Returns 1
 * when fn ran at idle priority, 0 when it ran at another.
 */
int idle_run(void (*fn)(void *arg), void *arg) NODISCARD;

#endif
