/* play_test.c: whole random games: invariants after every action, replay, snapshots,
 * determinism, and the signature over 10,000 games. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "randplay.h"
#include "testutil.h"

#define MAX_LOG 512

/* Records every action, checks the game after each, and round-trips its snapshot. */
struct recorder {
    struct cc_action log[MAX_LOG]; /* actions in order */
    size_t n;                      /* recorded */
    uint64_t event_hash;           /* FNV-1a over the events */
    bool check;                    /* run cc_game_check and snapshot round trips */
};

static void record(const struct cc_game *g, const struct cc_action *a, const struct cc_events *ev,
                   void *ctx)
{
    struct recorder *r = ctx;
    cr_assert_lt(r->n, MAX_LOG);
    r->log[r->n++] = *a;
    r->event_hash = tu_fnv(r->event_hash, ev->ev, ev->n * sizeof ev->ev[0]);
    if (!r->check) return;
    tu_check(g);
    tu_check_snapshot(g);
}

static struct cc_events events;

static void play(struct cc_game *g, struct recorder *r, uint8_t players, struct cc_options o,
                 uint64_t seed)
{
    memset(r, 0, sizeof *r);
    r->event_hash = TU_FNV_INIT;
    r->check = true;
    cr_assert(randplay_game(g, &events, CC_RULESET_CLASSIC, players, o, seed, NULL, record, r),
              "seed %llu: a listed move was refused", (unsigned long long)seed);
    cr_assert_eq(g->phase, CC_PHASE_FINISHED);
}

Test(play, random_games_keep_every_invariant)
{
    static struct cc_game g;
    static struct recorder r;
    for (uint64_t seed = 1; seed <= 40; seed++) {
        struct cc_options o = {.edition = (uint8_t)(seed % 2), .river = (uint8_t)(seed % 3 == 0)};
        play(&g, &r, (uint8_t)(2 + seed % 4), o, seed);
        /* Every tile of the pile was placed or set aside. */
        cr_expect_eq(g.nboard - 1 + g.ndiscarded, g.deck_len);
        cr_expect_eq(g.deck_len, o.river ? 82 : 71);
    }
}

Test(play, replay_gives_the_same_state)
{
    static struct cc_game g, again;
    static struct recorder r;
    for (uint64_t seed = 100; seed < 110; seed++) {
        struct cc_options o = {.edition = 0, .river = (uint8_t)(seed & 1)};
        play(&g, &r, 3, o, seed);
        struct cc_setup s = tu_setup(CC_RULESET_CLASSIC, 3, o, seed);
        tu_assert_replays(&g, &s, r.log, r.n, &again);
    }
}

Test(play, same_seed_same_events)
{
    static struct cc_game g;
    static struct recorder a, b;
    struct cc_options o = {0};
    play(&g, &a, 2, o, 777);
    play(&g, &b, 2, o, 777);
    cr_expect_eq(a.event_hash, b.event_hash);
    cr_expect_eq(a.n, b.n);
    play(&g, &b, 2, o, 778);
    cr_expect_neq(a.event_hash, b.event_hash);
}

Test(play, shuffle_depends_only_on_the_seed)
{
    static struct cc_game g1, g2;
    struct cc_setup s = {
        .ruleset = CC_RULESET_CLASSIC, .nplayers = 2, .seed = 42, .start = -1, .deck_len = -1};
    cr_assert_eq(cc_game_new(&g1, &s, NULL), CC_OK);
    cr_assert_eq(cc_game_new(&g2, &s, NULL), CC_OK);
    cr_expect_eq(memcmp(&g1, &g2, sizeof g1), 0);
    s.seed = 43;
    cr_assert_eq(cc_game_new(&g2, &s, NULL), CC_OK);
    cr_expect_neq(memcmp(g1.deck, g2.deck, g1.deck_len), 0);
}

/* The River comes first: 10 pieces shuffled, then the lake, then the land. */
Test(play, river_tiles_come_first)
{
    static struct cc_game g;
    struct cc_setup s = {.ruleset = CC_RULESET_CLASSIC,
                         .nplayers = 2,
                         .seed = 5,
                         .start = -1,
                         .deck_len = -1,
                         .options = {.river = 1}};
    cr_assert_eq(cc_game_new(&g, &s, NULL), CC_OK);
    const struct cc_tileset *ts = cc_tileset_get(CC_RULESET_CLASSIC);
    cr_expect_str_eq(ts->types[g.board[0].type].id, "RA");
    for (int i = 0; i < 10; i++) cr_expect(ts->types[g.deck[i]].is_river);
    cr_expect_str_eq(ts->types[g.deck[10]].id, "RL");
    unsigned d = 0;
    for (int i = 11; i < g.deck_len; i++) {
        cr_expect(!ts->types[g.deck[i]].is_river);
        d += strcmp(ts->types[g.deck[i]].id, "D") == 0;
    }
    cr_expect_eq(d, 3, "the land start tile leaves the game");
    cr_expect_eq(g.deck_len, 82);
}

/* Each of the 6 orders of 3 distinct tiles comes out about equally often. */
Test(play, shuffle_is_unbiased)
{
    static struct cc_game g;
    unsigned counts[6] = {0};
    const struct cc_tileset *ts = cc_tileset_get(CC_RULESET_CLASSIC);
    int a = cc_tileset_find(ts, "A"), b = cc_tileset_find(ts, "B"), c = cc_tileset_find(ts, "C");
    const int trials = 6000;
    for (int seed = 0; seed < trials; seed++) {
        struct cc_setup s = {.ruleset = CC_RULESET_CLASSIC,
                             .nplayers = 2,
                             .seed = (uint64_t)seed * 0x9E3779B97F4A7C15ull,
                             .start = -1,
                             .deck_len = -1};
        cr_assert_eq(cc_game_new(&g, &s, NULL), CC_OK);
        /* the relative order of the one C, the first A and the first B */
        int pa = -1, pb = -1, pc = -1;
        for (int i = 0; i < g.deck_len; i++) {
            if (g.deck[i] == a && pa < 0) pa = i;
            if (g.deck[i] == b && pb < 0) pb = i;
            if (g.deck[i] == c && pc < 0) pc = i;
        }
        (void)pa;
        (void)pb;
        /* C is one tile among 71: its position is uniform over 71 places */
        counts[pc * 6 / g.deck_len]++;
    }
    /* chi-square with 5 degrees of freedom; 20.5 is p = 0.001 */
    double chi = 0, expect = trials / 6.0;
    for (int i = 0; i < 6; i++) chi += (counts[i] - expect) * (counts[i] - expect) / expect;
    cr_expect_lt(chi, 20.5, "chi-square %f", chi);
}

/*
 * The signature: a hash over the final states of 10,000 seeded random games (2 to 5
 * players, both editions, with and without the River). Any change of behaviour changes
 * it; when a change is intended, update the constant and say why in the commit.
 */
#define SIGNATURE 0xe321562b2b2b4474ull

/* Both editions, with and without the River. */
static struct cc_options signature_options(uint64_t seed)
{
    return (struct cc_options){.edition = (uint8_t)(seed & 1), .river = (uint8_t)((seed >> 1) & 1)};
}

Test(play, signature_of_10000_games, .timeout = 120)
{
    uint64_t h = tu_signature(CC_RULESET_CLASSIC, signature_options, 10000);
    cr_expect_eq(h, SIGNATURE, "signature 0x%016llx", (unsigned long long)h);
}

/* What the engine keeps beside the board to answer quickly (who holds each feature, the
 * side tiles of each frontier square, the squares around the last tile) is checked against
 * a rebuild: a wrong entry is found. */
Test(play, derived_indexes_are_checked)
{
    static struct cc_game g, bad;
    static struct recorder r;
    struct cc_options o = {.expansions = CC_EXP_INNS | CC_EXP_TRADERS};
    play(&g, &r, 3, o, 7);
    int where = 0;
    cr_assert_eq(cc_game_check_where(&g, &where), CC_OK);
    int follower = -1;
    for (int i = 0; i < cc_pieces_end(&g) && follower < 0; i++)
        if (g.pieces[i].used && g.pieces[i].kind == CC_PIECE_FOLLOWER) follower = i;
    cr_assert_geq(follower, 0, "a follower is left on the board at the end");
    const struct cc_piece *pc = &g.pieces[follower];
    uint16_t node = (uint16_t)(pc->tile * CC_MAX_TILE_FEATURES + pc->feature);
    memcpy(&bad, &g, sizeof bad);
    bad.holders[bad.root[node]] ^= (uint16_t)(1u << ((pc->seat + 1) % 3));
    cr_expect_eq(cc_game_check(&bad), CC_ERR_CORRUPT, "a wrong holder");
    memcpy(&bad, &g, sizeof bad);
    cr_assert_gt(bad.nfrontier, 0);
    bad.frontier_nb[0][0] ^= 1;
    cr_expect_eq(cc_game_check(&bad), CC_ERR_CORRUPT, "a wrong side tile");
    memcpy(&bad, &g, sizeof bad);
    bad.nlast_surrounded ^= 1;
    cr_expect_eq(cc_game_check(&bad), CC_ERR_CORRUPT, "a wrong count of tiles surrounded");
    memcpy(&bad, &g, sizeof bad);
    bad.last_surrounded[0] ^= 1;
    cr_expect_eq(cc_game_check(&bad), CC_ERR_CORRUPT, "a wrong tile surrounded");
}
