/* testutil.h: small helpers shared by the engine's unit tests. */
#ifndef TESTUTIL_H
#define TESTUTIL_H

#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "game.h"

/* printf into one of a few rotating static buffers (tests run one per process). */
static inline const char *tu_format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline const char *tu_format(const char *fmt, ...)
{
    static char bufs[4][1024];
    static int k;
    char *b = bufs[k++ & 3];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b, sizeof bufs[0], fmt, ap);
    va_end(ap);
    return b;
}

/* "N NE C" for a mask of locations, "-" for none. */
static inline const char *tu_locations(unsigned mask)
{
    char buf[128] = "";
    size_t n = 0;
    for (int loc = 0; loc < CC_LOC_COUNT; loc++) {
        if (!(mask & (1u << loc))) continue;
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s", n ? " " : "",
                              cc_location_name((enum cc_location)loc));
    }
    return tu_format("%s", n ? buf : "-");
}

/* Asserts every invariant of the game. */
static inline void tu_check(const struct cc_game *g)
{
    int where = 0;
    cr_assert_eq(cc_game_check_where(g, &where), CC_OK, "game invariant broken: check.c:%d", where);
}

/*
 * Asserts that replaying `log[0..n)` from a new game of `s` gives `g` byte for byte
 * (`again` is the caller's scratch game: the state is too large for the stack).
 */
static inline void tu_assert_replays(const struct cc_game *g, const struct cc_setup *s,
                                     const struct cc_action *log, size_t n, struct cc_game *again)
{
    cr_assert_eq(cc_game_new(again, s, NULL), CC_OK);
    for (size_t i = 0; i < n; i++)
        cr_assert_eq(cc_game_apply(again, &log[i], NULL), CC_OK, "action %zu", i);
    cr_assert_eq(memcmp(g, again, sizeof *g), 0, "the replay differs, seed %llu",
                 (unsigned long long)s->seed);
}

#endif
