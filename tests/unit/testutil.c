/* testutil.c: the helpers of testutil.h. */
#include "testutil.h"

#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "placement.h"
#include "randplay.h"

void tu_free_params(struct criterion_test_params *crp)
{
    cr_free(crp->params);
}

struct criterion_test_params tu_index_params(size_t n)
{
    size_t *index = cr_malloc(sizeof *index * n);
    for (size_t i = 0; i < n; i++) index[i] = i;
    return cr_make_param_array(size_t, index, n, tu_free_params);
}

const char *tu_format(const char *fmt, ...)
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

const char *tu_locations(unsigned mask)
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

void tu_check(const struct cc_game *g)
{
    int where = 0;
    cr_assert_eq(cc_game_check_where(g, &where), CC_OK, "game invariant broken: check.c:%d", where);
}

void tu_check_snapshot(const struct cc_game *g)
{
    static uint8_t buf[CC_SNAPSHOT_MAX];
    size_t len = cc_game_encode(g, buf, sizeof buf);
    cr_assert_gt(len, 0);
    static struct cc_game back;
    cr_assert_eq(cc_game_decode(&back, buf, len), CC_OK);
    cr_assert_eq(memcmp(&back, g, sizeof back), 0, "decoded snapshot differs");
}

struct cc_setup tu_setup(int ruleset, unsigned nplayers, struct cc_options options, uint64_t seed)
{
    struct cc_setup s = {.ruleset = (uint8_t)ruleset,
                         .nplayers = (uint8_t)nplayers,
                         .options = options,
                         .seed = seed,
                         .start = -1,
                         .deck_len = -1};
    return s;
}

void tu_assert_replays(const struct cc_game *g, const struct cc_setup *s,
                       const struct cc_action *log, size_t n, struct cc_game *again)
{
    cr_assert_eq(cc_game_new(again, s, NULL), CC_OK);
    for (size_t i = 0; i < n; i++)
        cr_assert_eq(cc_game_apply(again, &log[i], NULL), CC_OK, "action %zu", i);
    cr_assert_eq(memcmp(g, again, sizeof *g), 0, "the replay differs, seed %llu",
                 (unsigned long long)s->seed);
}

struct cc_action tu_place(int x, int y, int rot, uint8_t tile)
{
    return (struct cc_action){.kind = CC_ACTION_PLACE,
                              .x = (int16_t)x,
                              .y = (int16_t)y,
                              .rot = (uint8_t)rot,
                              .tile = tile};
}

struct cc_action tu_follower(struct cc_action a, int loc)
{
    a.follow = CC_FOLLOW_FOLLOWER;
    a.loc = (uint8_t)loc;
    return a;
}

void tu_ok(struct cc_game *g, struct cc_action a, struct cc_events *ev)
{
    a.seat = g->seat;
    if (ev) ev->n = 0;
    cr_assert_eq(cc_game_apply(g, &a, ev), CC_OK);
    tu_check(g);
}

void tu_refused_as(struct cc_game *g, struct cc_action a, enum cc_status want)
{
    static struct cc_game before;
    before = *g;
    struct cc_events *ev = malloc(sizeof *ev);
    cr_assert_not_null(ev);
    ev->n = 0;
    enum cc_status st = cc_game_apply(g, &a, ev);
    cr_expect_eq(st, want, "got %s, expected %s", cc_status_name(st), cc_status_name(want));
    cr_expect_eq(ev->n, 0);
    cr_expect_eq(memcmp(&before, g, sizeof before), 0, "a refused action changed the game");
    free(ev);
}

void tu_refused(struct cc_game *g, struct cc_action a, enum cc_status want)
{
    a.seat = g->seat;
    tu_refused_as(g, a, want);
}

void tu_cross_check(const struct cc_game *g, unsigned samples)
{
    static struct cc_placement list[CC_MAX_PLACEMENTS];
    size_t n = cc_legal_placements(g, list, CC_MAX_PLACEMENTS, true);
    int minx = 0, maxx = 0, miny = 0, maxy = 0;
    for (unsigned i = 0; i < g->nboard; i++) {
        if (g->board[i].x < minx) minx = g->board[i].x;
        if (g->board[i].x > maxx) maxx = g->board[i].x;
        if (g->board[i].y < miny) miny = g->board[i].y;
        if (g->board[i].y > maxy) maxy = g->board[i].y;
    }
    uint8_t types[2] = {g->drawn, CC_NO_TILE};
    if (g->options.draw == CC_DRAW_HAND) {
        types[0] = g->players[g->seat].hand[0];
        types[1] = g->players[g->seat].hand[1];
        if (types[1] == types[0]) types[1] = CC_NO_TILE;
    }
    size_t brute = 0;
    for (int k = 0; k < 2; k++) {
        if (types[k] == CC_NO_TILE) continue;
        for (int x = minx - 1; x <= maxx + 1; x++)
            for (int y = miny - 1; y <= maxy + 1; y++)
                for (unsigned rot = 0; rot < 4; rot++)
                    brute += cc_check_position(g, types[k], x, y, rot) == CC_OK;
    }
    cr_assert_eq(n, brute, "listed %zu placements, the validator accepts %zu", n, brute);
    static struct cc_game copy;
    for (size_t i = 0; i < n; i += 1 + n / samples) {
        for (int loc = 0; loc < CC_LOC_COUNT; loc++) {
            copy = *g;
            struct cc_action p = {.kind = CC_ACTION_PLACE,
                                  .seat = g->seat,
                                  .x = list[i].x,
                                  .y = list[i].y,
                                  .rot = list[i].rot,
                                  .tile = list[i].tile,
                                  .follow = CC_FOLLOW_FOLLOWER,
                                  .loc = (uint8_t)loc};
            enum cc_status st = cc_game_apply(&copy, &p, NULL);
            bool listed = list[i].follower & (1u << loc);
            cr_assert_eq(st == CC_OK, listed, "location %s: %s", cc_location_name(loc),
                         cc_status_name(st));
        }
    }
}

uint64_t tu_fnv(uint64_t h, const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001B3ull;
    return h;
}

uint64_t tu_signature(uint8_t ruleset, struct cc_options (*options)(uint64_t seed), uint64_t games)
{
    static struct cc_game g;
    static struct cc_events ev;
    static uint8_t buf[CC_SNAPSHOT_MAX];
    uint64_t h = TU_FNV_INIT;
    for (uint64_t seed = 0; seed < games; seed++) {
        struct cc_options o = options ? options(seed) : (struct cc_options){0};
        cr_assert(
            randplay_game(&g, &ev, ruleset, (uint8_t)(2 + seed % 4), o, seed, NULL, NULL, NULL),
            "seed %llu: a listed move was refused", (unsigned long long)seed);
        size_t len = cc_game_encode(&g, buf, sizeof buf);
        cr_assert_gt(len, 0);
        h = tu_fnv(h, buf, len);
    }
    return h;
}
