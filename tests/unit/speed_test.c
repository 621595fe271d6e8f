/* speed_test.c: the engine's fast paths give what the plain ones give: a random pick of a
 * placement (cc_random_placement) is the entry of the full listing the same draw names. */
#include <criterion/criterion.h>
#include <string.h>

#include "randplay.h"
#include "rng.h"
#include "testutil.h"

/* Counts the positions compared. */
struct pick_check {
    uint64_t positions; /* place phases seen */
    uint64_t seed;      /* of the game, mixed into the draws */
};

/* At every place phase: the pick and the listing agree, and use the generator alike. */
static void compare_pick(const struct cc_game *g, const struct cc_action *a,
                         const struct cc_events *ev, void *ctx)
{
    static struct cc_placement list[CC_MAX_PLACEMENTS];
    struct pick_check *c = ctx;
    (void)a;
    (void)ev;
    if (g->phase != CC_PHASE_PLACE) return;
    struct cc_rng r1, r2;
    cc_rng_seed(&r1, c->seed * 1000003u + g->turn);
    r2 = r1;
    size_t n = cc_legal_placements(g, list, CC_MAX_PLACEMENTS, false);
    struct cc_placement p;
    memset(&p, 0xAB, sizeof p);
    size_t m = cc_random_placement(g, &r2, &p);
    cr_assert_eq(m, n, "turn %u: %zu placements picked from, %zu listed", g->turn, m, n);
    cr_assert_gt(n, 0);
    size_t k = cc_rng_below(&r1, (uint32_t)n);
    cr_assert(memcmp(&list[k], &p, sizeof p) == 0, "turn %u: entry %zu differs", g->turn, k);
    cr_assert(memcmp(&r1, &r2, sizeof r1) == 0, "turn %u: the generator was used differently",
              g->turn);
    c->positions++;
}

static void check_ruleset(uint8_t ruleset, struct cc_options o, unsigned games)
{
    static struct cc_game g;
    static struct cc_events ev;
    struct pick_check c = {0};
    for (uint64_t seed = 1; seed <= games; seed++) {
        c.seed = seed;
        cr_assert(randplay_game(&g, &ev, ruleset, (uint8_t)(2 + seed % 4), o, seed, NULL,
                                compare_pick, &c),
                  "seed %llu: a listed move was refused", (unsigned long long)seed);
    }
    cr_assert_gt(c.positions, games * 40);
}

Test(speed, random_pick_is_the_listed_entry_classic)
{
    check_ruleset(CC_RULESET_CLASSIC, (struct cc_options){0}, 200);
    check_ruleset(CC_RULESET_CLASSIC, (struct cc_options){.edition = 1}, 100);
    check_ruleset(CC_RULESET_CLASSIC, (struct cc_options){.river = 1}, 200);
}

Test(speed, random_pick_is_the_listed_entry_hills)
{
    check_ruleset(CC_RULESET_HILLS, (struct cc_options){0}, 200);
}

Test(speed, random_pick_is_the_listed_entry_discovery)
{
    check_ruleset(CC_RULESET_DISCOVERY, (struct cc_options){0}, 200);
    check_ruleset(CC_RULESET_DISCOVERY, (struct cc_options){.draw = CC_DRAW_HAND}, 200);
}

/* Outside the place phase there is nothing to pick and the generator is left alone. */
Test(speed, random_pick_outside_the_place_phase)
{
    static struct cc_game g;
    struct cc_setup s = randplay_setup(CC_RULESET_CLASSIC, 2, (struct cc_options){0}, 7);
    cr_assert_eq(cc_game_new(&g, &s, NULL), CC_OK);
    cr_assert_eq(g.phase, CC_PHASE_DRAW);
    struct cc_rng r1, r2;
    cc_rng_seed(&r1, 9);
    r2 = r1;
    struct cc_placement p;
    cr_assert_eq(cc_random_placement(&g, &r2, &p), 0);
    cr_assert(memcmp(&r1, &r2, sizeof r1) == 0);
}
