/* idle_run.c: a computation on a thread of its own at the lowest CPU priority -- see
 * idle_run.h. Why a thread of its own: an unprivileged thread that turned SCHED_IDLE can
 * never turn back (RLIMIT_NICE), and the job workers that ask for a computer player's
 * move also run clocks' deadlines, which must not wait behind every other thread. */
#define _GNU_SOURCE /* SCHED_IDLE */
#include "idle_run.h"

#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

/* What the thread runs, and whether it got the idle priority. */
struct idle_call {
    void (*fn)(void *arg); /* the computation */
    void *arg;             /* its argument */
    int idle;              /* 1 once the thread is SCHED_IDLE or at niceness 19 */
};

static void *idle_main(void *p)
{
    struct idle_call *c = p;
    struct sched_param sp = {.sched_priority = 0};
    /* SCHED_IDLE weighs 3 against a normal thread's 1024 (niceness 19: 15): under a full
     * load of requests the search gets almost nothing, and all the CPU left over. */
    if (pthread_setschedparam(pthread_self(), SCHED_IDLE, &sp) == 0 ||
        setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 19) == 0)
        c->idle = 1;
    c->fn(c->arg);
    return NULL;
}

int idle_run(void (*fn)(void *arg), void *arg)
{
    struct idle_call c = {fn, arg, 0};
    pthread_t t;
    if (pthread_create(&t, NULL, idle_main, &c) != 0) {
        fn(arg);
        return 0;
    }
    pthread_join(t, NULL);
    return c.idle;
}
