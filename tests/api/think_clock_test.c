/* think_clock_test.c: a search's clock pauses unless the threads running or ready to run
 * leave a CPU free beside its own (on one CPU: unless it is alone), doubling its pause to 16 ms
 * while that lasts and back to 1 ms after a look that finds a CPU free, and never pauses without a
 * load file it can read. The load file is one of the test's own, written as Linux writes
 * /proc/loadavg. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "think_clock.h"

static char path[64];

/* Writes the load file with `running` threads running or ready to run. */
static void write_running(int running)
{
    FILE *f = fopen(path, "w");
    cr_assert(f);
    fprintf(f, "0.61 0.54 0.50 %d/245 12345\n", running);
    fclose(f);
}

static void setup(void)
{
    snprintf(path, sizeof path, "/tmp/think_clock_test.%ld", (long)getpid());
    write_running(1);
}

static void teardown(void)
{
    unlink(path);
}

/* Calls the clock until it has looked at the load once. */
static void think_until_a_look(struct think_clock *c)
{
    uint64_t before = c->checked;
    while (c->checked == before) (void)think_clock_now(c);
}

TestSuite(think_clock, .init = setup, .fini = teardown);

Test(think_clock, no_pause_while_a_cpu_is_free)
{
    struct think_clock c;
    think_clock_open_file(&c, path, 2);
    cr_assert_geq(c.load_fd, 0);
    for (int i = 0; i < 5; i++) think_until_a_look(&c); /* the search alone */
    cr_assert_eq(c.pauses, 0);
    think_clock_close(&c);
    think_clock_open_file(&c, path, 4);
    write_running(3); /* the search and two others on four CPUs: one is free */
    for (int i = 0; i < 5; i++) think_until_a_look(&c);
    cr_assert_eq(c.pauses, 0);
    think_clock_close(&c);
    think_clock_open_file(&c, path, 1);
    write_running(1); /* one CPU: the search alone */
    for (int i = 0; i < 5; i++) think_until_a_look(&c);
    cr_assert_eq(c.pauses, 0);
    cr_assert_eq(c.paused_us, 0);
    think_clock_close(&c);
}

Test(think_clock, pauses_double_while_the_cpus_are_wanted_and_reset_after)
{
    struct think_clock c;
    think_clock_open_file(&c, path, 2);
    write_running(2); /* the search and one other thread: no CPU left free */
    const uint32_t expect[] = {1000, 2000, 4000, 8000, 16000, 16000};
    uint64_t paused = 0;
    for (int i = 0; i < 6; i++) {
        cr_assert_eq(c.pause_us, expect[i]);
        uint64_t before = think_clock_now(NULL);
        think_until_a_look(&c);
        uint64_t after = think_clock_now(NULL);
        cr_assert_eq(c.pauses, (uint32_t)i + 1);
        cr_assert_geq(after - before, expect[i], "a pause of %u us took %llu", expect[i],
                      (unsigned long long)(after - before));
        paused += expect[i];
        cr_assert_geq(c.paused_us, paused);
    }
    write_running(1);
    think_until_a_look(&c);
    cr_assert_eq(c.pauses, 6);
    cr_assert_eq(c.pause_us, 1000);
    think_clock_close(&c);
    think_clock_open_file(&c, path, 1);
    write_running(2); /* one CPU and another thread ready: it waits for the search's */
    think_until_a_look(&c);
    cr_assert_eq(c.pauses, 1);
    think_clock_close(&c);
}

Test(think_clock, no_load_file_no_pause)
{
    struct think_clock c;
    think_clock_open_file(&c, "/nonexistent/loadavg", 1);
    cr_assert_eq(c.load_fd, -1);
    uint64_t t0 = think_clock_now(&c);
    while (think_clock_now(&c) - t0 < 3000) {
    }
    cr_assert_eq(c.pauses, 0);
    think_clock_close(&c);
    FILE *f = fopen(path, "w"); /* a file not shaped like /proc/loadavg is none either */
    cr_assert(f);
    fputs("0.61 0.54 0.50\n", f);
    fclose(f);
    think_clock_open_file(&c, path, 1);
    cr_assert_eq(c.load_fd, -1);
    think_clock_close(&c);
}

Test(think_clock, the_machine_load_file_reads)
{
    struct think_clock c;
    think_clock_open(&c);
    cr_assert_geq(c.load_fd, 0, "/proc/loadavg could not be read");
    cr_assert_geq(c.ncpus, 1);
    think_clock_close(&c);
}

Test(think_clock, reads_the_monotonic_clock)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    uint64_t before = (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
    uint64_t t = think_clock_now(NULL);
    clock_gettime(CLOCK_MONOTONIC, &ts);
    uint64_t after = (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
    cr_assert(before <= t && t <= after);
}
