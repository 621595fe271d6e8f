/* think_clock.c: a search's clock that pauses the search while other work wants the CPUs
 * (think_clock.h). */
#define _GNU_SOURCE /* pread */
#include "think_clock.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define THINK_CHECK_US     250u   /* thinking between two looks at the run queue */
#define THINK_PAUSE_MIN_US 1000u  /* the first pause */
#define THINK_PAUSE_MAX_US 16000u /* the longest */

static uint64_t mono_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* Threads running or ready to run, from /proc/loadavg ("0.61 0.54 0.50 3/245 12345": the
 * 3); -1 when it cannot be read. Not PSI's /proc/pressure/cpu: read every few hundred us
 * it reports nothing (its totals weigh each CPU by whole jiffies of busy time, and a
 * shorter interval has none), and reading it that often drops the stall time from its
 * totals for everyone else who reads them. */
static int running_threads(int fd)
{
    char buf[128];
    ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
    if (n <= 0) return -1;
    buf[n] = '\0';
    const char *p = buf;
    for (int field = 0; field < 3; field++) {
        p = strchr(p, ' ');
        if (!p) return -1;
        p++;
    }
    char *end;
    long r = strtol(p, &end, 10);
    if (end == p || *end != '/' || r < 0 || r > 1000000) return -1;
    return (int)r;
}

void think_clock_open(struct think_clock *c)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    think_clock_open_file(c, "/proc/loadavg", n > 0 && n < 100000 ? (int)n : 1);
}

void think_clock_open_file(struct think_clock *c, const char *path, int ncpus)
{
    memset(c, 0, sizeof *c);
    c->ncpus = ncpus;
    c->pause_us = THINK_PAUSE_MIN_US;
    c->load_fd = open(path, O_RDONLY | O_CLOEXEC);
    if (c->load_fd >= 0 && running_threads(c->load_fd) < 0) {
        close(c->load_fd);
        c->load_fd = -1;
    }
    c->checked = mono_us();
}

uint64_t think_clock_now(void *ctx)
{
    struct think_clock *c = ctx;
    uint64_t t = mono_us();
    if (!c || c->load_fd < 0 || t - c->checked < THINK_CHECK_US) return t;
    c->checked = t;
    /* Think only while a CPU is left free beside the search's own (on one CPU: while no
     * other thread is ready): with every CPU busy, the next request to arrive would wait
     * for the search's CPU, and a kernel that lets it wait (think_clock.h) makes it wait long.
     * Pausing only once threads queued (more running than CPUs) still cost other games'
     * turns 6-10 % in make bench-http; this costs them 0-3 % (docs/operations.md). */
    int running = running_threads(c->load_fd);
    if (running <= (c->ncpus > 1 ? c->ncpus - 1 : 1)) {
        c->pause_us = THINK_PAUSE_MIN_US;
        return t;
    }
    struct timespec d = {0, (long)c->pause_us * 1000L};
    nanosleep(&d, NULL);
    uint64_t after = mono_us();
    c->pauses++;
    c->paused_us += after - t;
    if (c->pause_us < THINK_PAUSE_MAX_US) c->pause_us *= 2;
    c->checked = after;
    return after;
}

void think_clock_close(struct think_clock *c)
{
    if (c->load_fd >= 0) close(c->load_fd);
    c->load_fd = -1;
}
