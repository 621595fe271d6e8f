/* hills_test.c: Over Hill and Dale: catalogue counts, harvest scoring, token picks, and
 * whole random games (invariants, replay, snapshots, signature). */
#include <criterion/criterion.h>
#include <string.h>

#include "randplay.h"
#include "rules.h"
#include "testutil.h"

Test(hills, catalogue_counts)
{
    const struct cc_tileset *ts = cc_tileset_get(CC_RULESET_HILLS);
    cr_assert_not_null(ts);
    unsigned tiles = 0, symbols[CC_CROP_COUNT] = {0}, animals = 0, edges[CC_EDGE_COUNT] = {0};
    for (int i = 0; i < ts->ntypes; i++) {
        const struct cc_tile_type *t = &ts->types[i];
        tiles += t->count;
        for (int f = 0; f < t->nfeatures; f++)
            for (int c = 0; c < CC_CROP_COUNT; c++)
                symbols[c] += t->count * t->features[f].harvest[c];
        for (int a = 0; a < CC_ANIMAL_COUNT; a++) animals += t->count * t->animals[a];
        for (int s = 0; s < 4; s++) edges[t->edges[s]] += t->count;
    }
    cr_expect_eq(ts->ntypes, 23);
    cr_expect_eq(tiles, 73);
    cr_expect_str_eq(ts->types[ts->start_type].id, "J");
    for (int c = 0; c < CC_CROP_SCARECROW; c++) cr_expect_eq(symbols[c], 5, "crop %d", c);
    cr_expect_eq(symbols[CC_CROP_SCARECROW], 8);
    cr_expect_eq(animals, 55);
    cr_expect_eq(edges[CC_EDGE_MEADOW], 118);
    cr_expect_eq(edges[CC_EDGE_TRAIL], 96);
    cr_expect_eq(edges[CC_EDGE_FARMLAND], 78);
}

static int score(unsigned apple, unsigned straw, unsigned pump, unsigned sun, unsigned grain,
                 unsigned scare)
{
    uint8_t t[CC_CROP_COUNT] = {(uint8_t)apple, (uint8_t)straw, (uint8_t)pump,
                                (uint8_t)sun,   (uint8_t)grain, (uint8_t)scare};
    return cc_harvest_score(t);
}

Test(hills, harvest_score_counts_sets_as_many_as_possible)
{
    cr_expect_eq(score(0, 0, 0, 0, 0, 0), 0);
    cr_expect_eq(score(1, 1, 1, 1, 1, 0), 5 + 5);      /* one full set */
    cr_expect_eq(score(2, 2, 2, 2, 1, 0), 9 + 5);      /* a grain short of two */
    cr_expect_eq(score(2, 2, 2, 2, 1, 1), 10 + 10);    /* the scarecrow makes the second */
    cr_expect_eq(score(1, 1, 1, 0, 0, 2), 5 + 5);      /* two scarecrows in one set */
    cr_expect_eq(score(3, 0, 0, 0, 0, 3), 6 + 0);      /* 4 missing crops, 3 scarecrows */
    cr_expect_eq(score(3, 3, 0, 0, 0, 6), 12 + 10);    /* 2 sets need 6 stand-ins */
    cr_expect_eq(score(5, 5, 5, 5, 5, 8), 33 + 5 * 6); /* 6 sets: 8 scarecrows cover 5 */
    cr_expect_eq(score(0, 0, 0, 0, 0, 5), 5 + 5);      /* five scarecrows are a set */
}

/* Whole random games with every check after every action. */
struct hills_ctx {
    struct cc_action log[512];
    size_t n;
};

static void hills_hook(const struct cc_game *g, const struct cc_action *a,
                       const struct cc_events *ev, void *ctx)
{
    (void)ev;
    struct hills_ctx *h = ctx;
    cr_assert_lt(h->n, 512);
    h->log[h->n++] = *a;
    tu_check(g);
    tu_check_snapshot(g);
}

Test(hills, random_games_replay_and_keep_every_invariant)
{
    static struct cc_game g, again;
    static struct cc_events ev;
    static struct hills_ctx h;
    unsigned hikes = 0, stables = 0, tokens = 0;
    for (uint64_t seed = 1; seed <= 30; seed++) {
        h.n = 0;
        uint8_t players = (uint8_t)(2 + seed % 4);
        cr_assert(randplay_game(&g, &ev, CC_RULESET_HILLS, players, (struct cc_options){0}, seed,
                                NULL, hills_hook, &h));
        for (size_t i = 0; i < h.n; i++) {
            hikes += h.log[i].follow == CC_FOLLOW_HIKE;
            stables += h.log[i].follow == CC_FOLLOW_STABLE;
        }
        for (int c = 0; c < CC_CROP_COUNT; c++)
            tokens += cc_hills_token_total(c) - g.harvest_supply[c];
        struct cc_setup s = {.ruleset = CC_RULESET_HILLS,
                             .nplayers = players,
                             .seed = seed,
                             .start = -1,
                             .deck_len = -1};
        tu_assert_replays(&g, &s, h.log, h.n, &again);
    }
    /* the random player really used every follow-up */
    cr_expect_gt(hikes, 0);
    cr_expect_gt(stables, 0);
    cr_expect_gt(tokens, 0);
}

#define HILLS_SIGNATURE 0x35557490a353240eull

Test(hills, signature_of_10000_games, .timeout = 120)
{
    uint64_t h = tu_signature(CC_RULESET_HILLS, NULL, 10000);
    cr_expect_eq(h, HILLS_SIGNATURE, "signature 0x%016llx", (unsigned long long)h);
}
