/* expansions_test.c: Inns & Cathedrals and Traders & Builders in whole random games (every
 * invariant and the snapshot after every action, replays, signatures over seeded games of
 * each combination), their options and set-up. The rules case by case are golden cases
 * (tests/golden/classic/inns_*, traders_*). */
#include <criterion/criterion.h>
#include <string.h>

#include "randplay.h"
#include "testutil.h"

#define MAX_LOG 512

/* The combinations played: each expansion alone and both, with the River or not, both
 * values of inn_cathedral_final where inns are on, the original edition without traders. */
static const struct cc_options combos[] = {
    {.expansions = CC_EXP_INNS},
    {.expansions = CC_EXP_INNS, .inn_final = CC_INN_FINAL_IGNORE, .river = 1},
    {.expansions = CC_EXP_INNS, .edition = CC_EDITION_ORIGINAL},
    {.expansions = CC_EXP_TRADERS},
    {.expansions = CC_EXP_TRADERS, .river = 1},
    {.expansions = CC_EXP_INNS | CC_EXP_TRADERS},
    {.expansions = CC_EXP_INNS | CC_EXP_TRADERS, .inn_final = CC_INN_FINAL_IGNORE, .river = 1},
};
#define NCOMBOS (sizeof combos / sizeof combos[0])

/* Records the actions, checks the game and round-trips its snapshot after each, and counts
 * what the expansions did. */
struct recorder {
    struct cc_action log[MAX_LOG];
    size_t n;
    unsigned figures[CC_PIECE_KIND_COUNT]; /* deployed, by kind */
    unsigned extra_turns;                  /* turns the same seat moved twice in a row */
    unsigned goods;                        /* goods_taken events */
    uint8_t last_placer;                   /* seat of the last placement, CC_NO_SEAT first */
};

static void record(const struct cc_game *g, const struct cc_action *a, const struct cc_events *ev,
                   void *ctx)
{
    struct recorder *r = ctx;
    cr_assert_lt(r->n, MAX_LOG);
    r->log[r->n++] = *a;
    if (a->kind == CC_ACTION_PLACE) {
        if (a->follow == CC_FOLLOW_FOLLOWER) r->figures[a->figure]++;
        if (r->last_placer == a->seat) r->extra_turns++;
        r->last_placer = a->seat;
    }
    for (size_t i = 0; i < ev->n; i++) r->goods += ev->ev[i].type == CC_EV_GOODS_TAKEN;
    tu_check(g);
    tu_check_snapshot(g);
}

static struct cc_events events;

Test(expansions, random_games_keep_every_invariant_and_replay, .timeout = 240)
{
    static struct cc_game g, again;
    static struct recorder r;
    unsigned figures[CC_PIECE_KIND_COUNT] = {0}, extra = 0, goods = 0;
    for (uint64_t seed = 1; seed <= 6 * NCOMBOS; seed++) {
        struct cc_options o = combos[seed % NCOMBOS];
        uint8_t players = (uint8_t)(2 + seed % 5); /* 2..6 */
        memset(&r, 0, sizeof r);
        r.last_placer = CC_NO_SEAT;
        cr_assert(
            randplay_game(&g, &events, CC_RULESET_CLASSIC, players, o, seed, NULL, record, &r),
            "seed %llu: a listed move was refused", (unsigned long long)seed);
        cr_assert_eq(g.phase, CC_PHASE_FINISHED);
        unsigned tiles = 71 + (o.river ? 11 : 0) + (o.expansions & CC_EXP_INNS ? 18 : 0) +
                         (o.expansions & CC_EXP_TRADERS ? 24 : 0);
        cr_expect_eq(g.deck_len, tiles);
        cr_expect_eq(g.nboard - 1 + g.ndiscarded, g.deck_len);
        struct cc_setup s = tu_setup(CC_RULESET_CLASSIC, players, o, seed);
        tu_assert_replays(&g, &s, r.log, r.n, &again);
        for (int k = 0; k < CC_PIECE_KIND_COUNT; k++) figures[k] += r.figures[k];
        extra += r.extra_turns;
        goods += r.goods;
    }
    /* The random players used every figure, builders gave extra turns, cities gave goods. */
    cr_expect_gt(figures[CC_PIECE_LARGE], 0);
    cr_expect_gt(figures[CC_PIECE_BUILDER], 0);
    cr_expect_gt(figures[CC_PIECE_PIG], 0);
    cr_expect_gt(extra, 0);
    cr_expect_gt(goods, 0);
}

/* A hash over the final snapshots of 700 seeded random games per combination: any change of
 * behaviour changes it; when a change is intended, update the constant and say why. */
static const uint64_t signatures[NCOMBOS] = {
    0xa7429e4c94f621cbull, 0x72d0823904738a33ull, 0x240b218960aa6449ull, 0xffe22f04035a6b2aull,
    0x3fdfcfff17f164a6ull, 0xa617648e4a4d8698ull, 0xc89f2b28460f0ebdull,
};

Test(expansions, signatures_of_seeded_games, .timeout = 240)
{
    static struct cc_game g;
    static uint8_t buf[CC_SNAPSHOT_MAX];
    for (size_t c = 0; c < NCOMBOS; c++) {
        uint64_t h = TU_FNV_INIT;
        for (uint64_t seed = 0; seed < 700; seed++) {
            cr_assert(randplay_game(&g, &events, CC_RULESET_CLASSIC, (uint8_t)(2 + seed % 5),
                                    combos[c], seed, NULL, NULL, NULL));
            size_t len = cc_game_encode(&g, buf, sizeof buf);
            cr_assert_gt(len, 0);
            h = tu_fnv(h, buf, len);
        }
        cr_expect_eq(h, signatures[c], "combination %zu: signature 0x%016llx", c,
                     (unsigned long long)h);
    }
}

static enum cc_status create(struct cc_game *g, uint8_t players, struct cc_options o)
{
    struct cc_setup s = tu_setup(CC_RULESET_CLASSIC, players, o, 5);
    return cc_game_new(g, &s, NULL);
}

Test(expansions, options_and_player_counts)
{
    static struct cc_game g;
    struct cc_options none = {0}, inns = {.expansions = CC_EXP_INNS};
    struct cc_options traders = {.expansions = CC_EXP_TRADERS};
    cr_expect_eq(create(&g, 6, none), CC_ERR_BAD_PLAYER_COUNT);
    cr_expect_eq(create(&g, 5, none), CC_OK);
    cr_expect_eq(create(&g, 6, inns), CC_OK);
    cr_expect_eq(create(&g, 6, traders), CC_OK);
    cr_expect_eq(create(&g, 7, traders), CC_ERR_BAD_PLAYER_COUNT);
    cr_expect_eq(cc_max_players(&none), 5);
    cr_expect_eq(cc_max_players(&inns), 6);
    struct cc_options o = {.expansions = CC_EXP_TRADERS, .edition = CC_EDITION_ORIGINAL};
    cr_expect_eq(create(&g, 2, o), CC_ERR_INCOMPATIBLE_OPTIONS);
    o.expansions = CC_EXP_TRADERS | CC_EXP_INNS;
    cr_expect_eq(create(&g, 2, o), CC_ERR_INCOMPATIBLE_OPTIONS);
    o.expansions = CC_EXP_INNS;
    cr_expect_eq(create(&g, 2, o), CC_OK);
    struct cc_options ignore = {.inn_final = CC_INN_FINAL_IGNORE};
    cr_expect_eq(create(&g, 2, ignore), CC_ERR_INCOMPATIBLE_OPTIONS);
    ignore.expansions = CC_EXP_TRADERS;
    cr_expect_eq(create(&g, 2, ignore), CC_ERR_INCOMPATIBLE_OPTIONS);
    ignore.expansions = CC_EXP_INNS | CC_EXP_TRADERS;
    cr_expect_eq(create(&g, 2, ignore), CC_OK);
    struct cc_options unknown = {.expansions = 4};
    cr_expect_eq(create(&g, 2, unknown), CC_ERR_BAD_OPTION);
    /* Only classic has them. */
    struct cc_setup s = tu_setup(CC_RULESET_HILLS, 2, inns, 1);
    cr_expect_eq(cc_game_new(&g, &s, NULL), CC_ERR_BAD_OPTION);
}

/* The supplies: 7 followers, and 1 large follower (inns), 1 builder and 1 pig (traders). */
Test(expansions, supplies_and_columns)
{
    static struct cc_game g;
    struct cc_options both = {.expansions = CC_EXP_INNS | CC_EXP_TRADERS};
    cr_assert_eq(create(&g, 6, both), CC_OK);
    for (unsigned s = 0; s < 6; s++) {
        cr_expect_eq(g.players[s].followers, 7);
        cr_expect_eq(g.players[s].large, 1);
        cr_expect_eq(g.players[s].builders, 1);
        cr_expect_eq(g.players[s].pigs, 1);
    }
    cr_expect(cc_game_columns(&g) & (1u << CC_COL_GOODS));
    cr_expect_str_eq(cc_column_name(CC_COL_GOODS), "goods");
    struct cc_options inns = {.expansions = CC_EXP_INNS};
    cr_assert_eq(create(&g, 2, inns), CC_OK);
    cr_expect_eq(g.players[0].large, 1);
    cr_expect_eq(g.players[0].builders, 0);
    cr_expect_not(cc_game_columns(&g) & (1u << CC_COL_GOODS));
    cr_assert_eq(create(&g, 2, (struct cc_options){0}), CC_OK);
    cr_expect_eq(g.players[0].large, 0);
}

/* The expansion tiles are shuffled into the land; a deck may name them only with their
 * expansion on. */
Test(expansions, tiles_in_the_pile)
{
    static struct cc_game g;
    const struct cc_tileset *ts = cc_tileset_get(CC_RULESET_CLASSIC);
    struct cc_options river_traders = {.expansions = CC_EXP_TRADERS, .river = 1};
    cr_assert_eq(create(&g, 2, river_traders), CC_OK);
    cr_expect_eq(g.deck_len, 71 + 11 + 24);
    /* With the River: its 11 tiles first, the lake 11th, then land and traders mixed. */
    for (unsigned i = 0; i < 11; i++) cr_expect_eq(ts->types[g.deck[i]].set, CC_SET_RIVER);
    unsigned traders = 0;
    for (unsigned i = 11; i < g.deck_len; i++) {
        cr_expect_neq(ts->types[g.deck[i]].set, CC_SET_RIVER);
        traders += ts->types[g.deck[i]].set == CC_SET_TRADERS;
    }
    cr_expect_eq(traders, 24);
    struct cc_setup s = {
        .ruleset = CC_RULESET_CLASSIC, .nplayers = 2, .seed = 1, .start = -1, .deck_len = 1};
    s.deck[0] = (uint8_t)cc_tileset_find(ts, "IA");
    cr_expect_eq(cc_game_new(&g, &s, NULL), CC_ERR_TILE_NOT_IN_GAME);
    s.options.expansions = CC_EXP_INNS;
    cr_expect_eq(cc_game_new(&g, &s, NULL), CC_OK);
    s.deck[0] = (uint8_t)cc_tileset_find(ts, "TX");
    cr_expect_eq(cc_game_new(&g, &s, NULL), CC_ERR_TILE_NOT_IN_GAME);
}

/* A snapshot of version 1 (before the expansions) still decodes, and a game without an
 * expansion still encodes in it; a game with one encodes in version 2. */
Test(expansions, snapshot_versions)
{
    static struct cc_game g, back;
    static uint8_t buf[CC_SNAPSHOT_MAX];
    cr_assert_eq(create(&g, 2, (struct cc_options){0}), CC_OK);
    size_t len = cc_game_encode(&g, buf, sizeof buf);
    cr_assert_gt(len, 3);
    cr_expect_eq(buf[2], 1);
    cr_expect_eq(cc_game_decode(&back, buf, len), CC_OK);
    cr_expect_eq(memcmp(&g, &back, sizeof g), 0);
    cr_assert_eq(create(&g, 6, (struct cc_options){.expansions = CC_EXP_TRADERS}), CC_OK);
    len = cc_game_encode(&g, buf, sizeof buf);
    cr_expect_eq(buf[2], CC_SNAPSHOT_VERSION);
    cr_expect_eq(CC_SNAPSHOT_VERSION, 2);
    cr_expect_eq(cc_game_decode(&back, buf, len), CC_OK);
    cr_expect_eq(memcmp(&g, &back, sizeof g), 0);
    /* A version 1 header on an expansion game's body is refused, not misread. */
    buf[2] = 1;
    cr_expect_eq(cc_game_decode(&back, buf, len), CC_ERR_CORRUPT);
    buf[2] = 3;
    cr_expect_eq(cc_game_decode(&back, buf, len), CC_ERR_CORRUPT);
    /* Version 2 with no expansion is not how such a game is written: refused. */
    buf[2] = 2;
    buf[8] = 0; /* the expansions byte: after magic (2), version, ruleset, players, 3 options */
    cr_expect_eq(cc_game_decode(&back, buf, len), CC_ERR_CORRUPT);
}
