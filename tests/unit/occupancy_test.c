/* occupancy_test.c: the follow-ups listed for a placement (cc_placement_followups()) are
 * those the board shows once the tile is placed: a follower or the large follower on each
 * feature that, joined, holds no follower; the builder on each road or city that holds one
 * of the seat's followers and stays open; the pig on each field that holds one of the seat's
 * followers. The oracle places the tile on a copy (cc_board_place(), before any scoring)
 * and reads the joined features, so a feature joined to an occupied one through another
 * segment of the same tile (the two fields of a road both touching one field beyond it) is
 * found as the rules have it; cc_feature_would_be_occupied(), the check of a deploy, is
 * held to the same oracle, and the joins a frontier square keeps to those its side tiles
 * show. Every legal placement of every third turn of seeded random
 * games, in every ruleset and the expansions' combinations (about 300,000 placements). */
#include <criterion/criterion.h>

#include "board.h"
#include "game.h"
#include "placement.h"
#include "randplay.h"
#include "rules.h"

struct oracle_run {
    unsigned states;     /* positions checked */
    unsigned placements; /* placements checked */
    unsigned joined;     /* placements where a group of two segments or more mattered */
    unsigned turn;       /* actions seen in this game */
};

/* The follow-ups that the board after placing `p` (no follower) allows; *grouped set when
 * two of the tile's segments of a follower kind end up in one feature. */
static struct cc_placement expected(const struct cc_game *g, const struct cc_placement *p,
                                    bool *grouped)
{
    static struct cc_game copy;
    copy = *g;
    const struct cc_rules *rules = cc_rules_of((enum cc_ruleset)g->ruleset);
    const struct cc_tile_type *t = &cc_types(g)[p->tile];
    const struct cc_player *me = &g->players[g->seat];
    unsigned ti = cc_board_place(&copy, p->tile, p->x, p->y, p->rot, NULL);
    struct cc_placement want = {0};
    *grouped = false;
    for (unsigned f = 0; f < t->nfeatures; f++) {
        unsigned kind = t->features[f].kind;
        if (!(rules->follower_kinds & (1u << kind))) continue;
        uint16_t root = copy.root[cc_node(ti, f)];
        for (unsigned o = 0; o < f; o++) *grouped |= copy.root[cc_node(ti, o)] == root;
        uint16_t locs = cc_rotate_slots(t->features[f].slots, p->rot);
        unsigned h = copy.holders[root];
        bool held = (h & CC_HOLDER_FOLLOWERS) != 0, own = (h >> g->seat & 1u) != 0;
        /* The check of a deploy (game.c) says the same. */
        cr_assert_eq(cc_feature_would_be_occupied(g, t, f, p->x, p->y, p->rot), held,
                     "feature %u of tile %u at (%d, %d) rot %u", f, p->tile, p->x, p->y, p->rot);
        if (!held && me->followers) want.follower |= locs;
        if (!held && me->large) want.large |= locs;
        if (own && me->builders && (kind == CC_KIND_ROAD || kind == CC_KIND_CITY) &&
            copy.open[root] != 0)
            want.builder |= locs;
        if (own && me->pigs && kind == CC_KIND_FIELD) want.pig |= locs;
    }
    return want;
}

/* What the frontier square of `p` keeps (cc_joins_on_frontier()) is what its side tiles say
 * (cc_joins_from_sides()): the same side tiles, roots (in any order) with the same touching
 * features, and groups. */
static void check_joins(const struct cc_game *g, const struct cc_placement *p)
{
    const struct cc_tile_type *t = &cc_types(g)[p->tile];
    int cell = cc_cell_get(g, p->x, p->y);
    cr_assert(cell >= 0 && (cell & CC_CELL_FRONTIER), "a legal placement off the frontier");
    struct cc_joins kept, looked;
    cc_joins_on_frontier(g, t, (unsigned)cell & ~CC_CELL_FRONTIER, p->rot, &kept);
    cc_joins_from_sides(g, t, p->x, p->y, p->rot, &looked);
    cr_assert_eq(kept.n, looked.n, "tile %u at (%d, %d) rot %u: %u roots kept, %u beyond", p->tile,
                 p->x, p->y, p->rot, kept.n, looked.n);
    for (unsigned s = 0; s < 4; s++) cr_assert_eq(kept.nb[s], looked.nb[s]);
    for (unsigned k = 0; k < kept.n; k++) {
        unsigned m = 0;
        while (m < looked.n && looked.root[m] != kept.root[k]) m++;
        cr_assert(m < looked.n && looked.touch[m] == kept.touch[k],
                  "tile %u at (%d, %d) rot %u: root %u kept, touching %#x", p->tile, p->x, p->y,
                  p->rot, kept.root[k], kept.touch[k]);
    }
    for (unsigned f = 0; f < t->nfeatures; f++) cr_assert_eq(kept.group[f], looked.group[f]);
}

static void check_position(const struct cc_game *g, const struct cc_action *a,
                           const struct cc_events *ev, void *ctx)
{
    (void)a;
    (void)ev;
    struct oracle_run *run = ctx;
    if (g->phase != CC_PHASE_PLACE || run->turn++ % 3 != 0) return;
    static struct cc_placement list[CC_MAX_PLACEMENTS];
    size_t n = cc_legal_placements(g, list, CC_MAX_PLACEMENTS, true);
    cr_assert_leq(n, CC_MAX_PLACEMENTS);
    run->states++;
    for (size_t i = 0; i < n; i++) {
        const struct cc_placement *p = &list[i];
        bool grouped;
        struct cc_placement want = expected(g, p, &grouped);
        check_joins(g, p);
        run->placements++;
        run->joined += grouped;
        cr_assert(p->follower == want.follower && p->large == want.large &&
                      p->builder == want.builder && p->pig == want.pig,
                  "ruleset %u, tile %u at (%d, %d) rot %u, seat %u: follower %#x large %#x "
                  "builder %#x pig %#x listed, the board says %#x %#x %#x %#x",
                  g->ruleset, p->tile, p->x, p->y, p->rot, g->seat, p->follower, p->large,
                  p->builder, p->pig, want.follower, want.large, want.builder, want.pig);
    }
}

static void play_many(uint8_t ruleset, struct cc_options o, unsigned games, struct oracle_run *run)
{
    static struct cc_game g;
    static struct cc_events ev;
    for (uint64_t seed = 1; seed <= games; seed++) {
        run->turn = 0;
        cr_assert(randplay_game(&g, &ev, ruleset, (uint8_t)(2 + seed % 3), o, seed, NULL,
                                check_position, run));
    }
}

Test(occupancy, listed_followups_match_the_board_after_placing, .timeout = 240)
{
    const struct {
        uint8_t ruleset;
        struct cc_options o;
    } cases[] = {
        {CC_RULESET_CLASSIC, {0}},
        {CC_RULESET_CLASSIC, {.river = 1, .edition = CC_EDITION_ORIGINAL}},
        {CC_RULESET_CLASSIC, {.expansions = CC_EXP_INNS}},
        {CC_RULESET_CLASSIC, {.expansions = CC_EXP_TRADERS}},
        {CC_RULESET_CLASSIC, {.expansions = CC_EXP_INNS | CC_EXP_TRADERS, .river = 1}},
        {CC_RULESET_HILLS, {0}},
        {CC_RULESET_DISCOVERY, {0}},
    };
    struct oracle_run run = {0};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
        play_many(cases[c].ruleset, cases[c].o, 40, &run);
    /* The case this test is for came up (a group of segments joined beyond the tile). */
    cr_expect_gt(run.joined, 0, "%u placements of %u positions checked, none grouped",
                 run.placements, run.states);
}
