/* think_clock.h: the clock a computer player's search reads (struct cc_bot_budget's now_us),
 * which also makes the search step aside whenever other work wants the CPUs. */
#ifndef API_THINK_CLOCK_H
#define API_THINK_CLOCK_H

#include <stdint.h>

/* One search's clock: open with think_clock_open(), pass as now_ctx, close after. */
struct think_clock {
    int load_fd;        /* /proc/loadavg, or -1 where there is none */
    int ncpus;          /* CPUs online */
    uint64_t checked;   /* when the clock last looked at the run queue (us) */
    uint32_t pause_us;  /* the next pause; doubles while the CPUs stay wanted */
    uint32_t pauses;    /* pauses taken */
    uint64_t paused_us; /* their time in all */
};

/* Opens the clock (/proc/loadavg, the number of CPUs online). */
void think_clock_open(struct think_clock *c);

/* think_clock_open() with another load file at `path` and `ncpus` CPUs (for tests). */
void think_clock_open_file(struct think_clock *c, const char *path, int ncpus);

/*
 * Monotonic microseconds (the engine's now_us; `ctx` is a struct think_clock, or NULL for
 * the bare clock). At most every THINK_CHECK_US it reads how many threads of the machine
 * are running or ready to run (/proc/loadavg, the search's own thread included); unless
 * that leaves a CPU free beside the search's own (on a machine of one CPU: unless the
 * search is alone), it sleeps before it answers: 1 ms, doubling to 16 ms while that
 * lasts, back to 1 ms after a look that found a CPU free.
 *
 * Why: SCHED_IDLE alone does not keep the search off a CPU that others want. On Linux 6.18
 * a ksoftirqd (loopback packets to the database) and a database backend were seen ready
 * to run for 120-160 ms behind an idle-priority search while every turn waited for them
 * (the p99 of turns went from 14-24 ms to 80-330 ms). A sleeping search is never chosen
 * over them. The pauses count in think_ms: a computer player still moves in time, with
 * fewer simulations the busier the machine (none at all leaves greedy's choice).
 */
uint64_t think_clock_now(void *ctx);

/* Closes the load file. */
void think_clock_close(struct think_clock *c);

#endif
