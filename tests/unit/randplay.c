/* randplay.c: a random player for tests and benchmarks. */
#include <string.h>

#include "randplay.h"
#include "rng.h"

/* The first location of each feature of `t` turned `rot` among the locations in `mask`, into
 * out[]; returns how many (it may write out[n], one past them). */
static unsigned per_feature(const struct cc_tile_type *t, unsigned rot, unsigned mask, uint8_t *out)
{
    unsigned n = 0, seen = 0; /* seen: bits of the features chosen */
    for (unsigned locs = mask; locs; locs &= locs - 1) {
        unsigned loc = (unsigned)__builtin_ctz(locs);
        unsigned f = t->slot_feature[rot][loc];
        out[n] = (uint8_t)loc; /* kept (counted) when its feature is new */
        n += !(seen >> f & 1u);
        seen |= 1u << f;
    }
    return n;
}

struct cc_setup randplay_setup(uint8_t ruleset, uint8_t nplayers, struct cc_options options,
                               uint64_t seed)
{
    struct cc_setup setup;
    memset(&setup, 0, sizeof setup);
    setup.ruleset = ruleset;
    setup.nplayers = nplayers;
    setup.options = options;
    setup.seed = seed;
    setup.start = -1;
    setup.deck_len = -1;
    return setup;
}

bool randplay_game(struct cc_game *g, struct cc_events *ev, uint8_t ruleset, uint8_t nplayers,
                   struct cc_options options, uint64_t seed, struct randplay_stats *stats,
                   randplay_hook hook, void *ctx)
{
    const struct cc_tileset *ts = cc_tileset_get((enum cc_ruleset)ruleset);
    struct cc_setup setup = randplay_setup(ruleset, nplayers, options, seed);
    ev->n = 0;
    if (cc_game_new(g, &setup, ev) != CC_OK) return false;
    struct cc_rng rng;
    cc_rng_seed(&rng, seed ^ 0x5DEECE66Dull);
    while (g->phase != CC_PHASE_FINISHED) {
        struct cc_action a;
        memset(&a, 0, sizeof a);
        a.seat = g->seat;
        a.tile = CC_NO_TILE;
        if (g->phase == CC_PHASE_DRAW) {
            a.kind = CC_ACTION_DRAW;
        } else {
            /* The same as list[cc_rng_below(&rng, n)] of cc_legal_placements(), unlisted. */
            struct cc_placement chosen;
            size_t n = cc_random_placement(g, &rng, &chosen);
            if (n == 0 || n > CC_MAX_PLACEMENTS) return false;
            struct cc_placement *p = &chosen;
            cc_placement_followups(g, p);
            a.kind = CC_ACTION_PLACE;
            a.x = p->x;
            a.y = p->y;
            a.rot = p->rot;
            if (g->options.draw == CC_DRAW_HAND) a.tile = p->tile; /* discovery hand variant */
            /* One choice per feature: its first location. */
            const struct cc_tile_type *t = &ts->types[p->tile];
            uint8_t choices[CC_LOC_COUNT]; /* per_feature() writes one past its count */
            unsigned nchoices = per_feature(t, p->rot, p->follower, choices);
            /* The figures of the expansions of classic (large follower, builder, pig): one
             * choice per feature each, after every other (none in a game without them). */
            uint8_t figure_locs[3 * CC_MAX_TILE_FEATURES + 1];
            uint8_t figure_kinds[3 * CC_MAX_TILE_FEATURES];
            unsigned nfigures = 0;
            const uint16_t masks[3] = {p->large, p->builder, p->pig};
            const uint8_t kinds[3] = {CC_PIECE_LARGE, CC_PIECE_BUILDER, CC_PIECE_PIG};
            for (unsigned k = 0; k < 3; k++) {
                /* The large follower goes where a follower may: the same list, found once. */
                unsigned got;
                if (masks[k] == p->follower) {
                    memcpy(figure_locs + nfigures, choices, nchoices);
                    got = nchoices;
                } else {
                    got = per_feature(t, p->rot, masks[k], figure_locs + nfigures);
                }
                for (unsigned j = 0; j < got; j++) figure_kinds[nfigures++] = kinds[k];
            }
            /* Stables and hikes (hills) are further choices, one per location or hike. */
            uint8_t stable_locs[CC_LOC_COUNT], hikes[16];
            unsigned nstables = 0, nhikes = 0;
            for (unsigned m = p->stable; m; m &= m - 1)
                stable_locs[nstables++] = (uint8_t)__builtin_ctz(m);
            for (unsigned m = p->hike; m; m &= m - 1) hikes[nhikes++] = (uint8_t)__builtin_ctz(m);
            /* Withdrawals (discovery) are further choices, one per own follower on the board. */
            uint8_t withdraws[CC_MAX_PIECES];
            unsigned nwithdraws = 0;
            for (unsigned i = 0; ruleset == CC_RULESET_DISCOVERY && i < CC_MAX_PIECES; i++)
                if (g->pieces[i].used && g->pieces[i].seat == g->seat)
                    withdraws[nwithdraws++] = (uint8_t)i;
            unsigned pick =
                cc_rng_below(&rng, nchoices + nstables + nhikes + nwithdraws + nfigures + 1);
            if (pick < nchoices) {
                a.follow = CC_FOLLOW_FOLLOWER;
                a.loc = choices[pick];
            } else if (pick < nchoices + nstables) {
                a.follow = CC_FOLLOW_STABLE;
                a.loc = stable_locs[pick - nchoices];
            } else if (pick < nchoices + nstables + nhikes) {
                unsigned b = hikes[pick - nchoices - nstables];
                cc_hike_origin(g, b / 4, &a.fx, &a.fy);
                a.follow = CC_FOLLOW_HIKE;
                a.loc = (uint8_t)(b % 4);
            } else if (pick < nchoices + nstables + nhikes + nwithdraws) {
                /* Named by its square and a random location of its segment. */
                const struct cc_piece *pc =
                    &g->pieces[withdraws[pick - nchoices - nstables - nhikes]];
                const struct cc_placed *on = &g->board[pc->tile];
                const struct cc_tile_type *ot = &ts->types[on->type];
                uint8_t locs[CC_LOC_COUNT];
                unsigned nlocs = 0;
                for (unsigned loc = 0; loc < CC_LOC_COUNT; loc++)
                    if (ot->slot_feature[on->rot][loc] == pc->feature) locs[nlocs++] = (uint8_t)loc;
                a.follow = CC_FOLLOW_WITHDRAW;
                a.fx = on->x;
                a.fy = on->y;
                a.loc = locs[cc_rng_below(&rng, nlocs)];
            } else if (pick < nchoices + nstables + nhikes + nwithdraws + nfigures) {
                unsigned k = pick - nchoices - nstables - nhikes - nwithdraws;
                a.follow = CC_FOLLOW_FOLLOWER;
                a.figure = figure_kinds[k];
                a.loc = figure_locs[k];
            }
            if (stats) stats->placements++;
        }
        ev->n = 0;
        if (cc_game_apply(g, &a, ev) != CC_OK) return false;
        if (stats) stats->events += ev->n;
        if (hook) hook(g, &a, ev, ctx);
    }
    if (stats) stats->games++;
    return true;
}
