/* rules_test.c: every refusal of the engine, each leaving the game unchanged; and the
 * listed placements and follow-ups cross-checked against the validator. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "placement.h"
#include "randplay.h"
#include "testutil.h"

static const struct cc_tileset *ts;

static uint8_t tile(const char *id)
{
    int t = cc_tileset_find(ts, id);
    cr_assert_geq(t, 0, "tile %s", id);
    return (uint8_t)t;
}

/* A 2-player classic game with the given draw order. */
static void new_game(struct cc_game *g, const char *const *deck, int n, uint8_t river)
{
    ts = cc_tileset_get(CC_RULESET_CLASSIC);
    struct cc_setup s = {.ruleset = CC_RULESET_CLASSIC,
                         .nplayers = 2,
                         .start = -1,
                         .deck_len = (int16_t)n,
                         .options = {.river = river}};
    for (int i = 0; i < n; i++) s.deck[i] = tile(deck[i]);
    cr_assert_eq(cc_game_new(g, &s, NULL), CC_OK);
}

static void ok(struct cc_game *g, struct cc_action a)
{
    tu_ok(g, a, NULL);
}

static struct cc_action draw(void)
{
    return (struct cc_action){.kind = CC_ACTION_DRAW};
}

/* A placement of the drawn tile. */
static struct cc_action place(int x, int y, int rot)
{
    return tu_place(x, y, rot, CC_NO_TILE);
}

Test(rules, setup_is_validated)
{
    static struct cc_game g;
    struct cc_setup s = {.ruleset = CC_RULESET_CLASSIC, .nplayers = 1, .start = -1, .deck_len = -1};
    cr_expect_eq(cc_game_new(&g, &s, NULL), CC_ERR_BAD_PLAYER_COUNT);
    s.nplayers = 6;
    cr_expect_eq(cc_game_new(&g, &s, NULL), CC_ERR_BAD_PLAYER_COUNT);
    s.nplayers = 2;
    s.options.edition = 2;
    cr_expect_eq(cc_game_new(&g, &s, NULL), CC_ERR_BAD_OPTION);
    s.options.edition = 0;
    s.options.draw = CC_DRAW_HAND;
    cr_expect_eq(cc_game_new(&g, &s, NULL), CC_ERR_BAD_OPTION);
    s.options.draw = 0;
    s.start = 99;
    cr_expect_eq(cc_game_new(&g, &s, NULL), CC_ERR_UNKNOWN_TILE);
    s.start = -1;
    s.deck_len = CC_MAX_DECK + 1;
    cr_expect_eq(cc_game_new(&g, &s, NULL), CC_ERR_DECK_TOO_LONG);
    s.deck_len = 1;
    s.deck[0] = 200;
    cr_expect_eq(cc_game_new(&g, &s, NULL), CC_ERR_UNKNOWN_TILE);
    /* river tiles only with the River */
    ts = cc_tileset_get(CC_RULESET_CLASSIC);
    s.deck[0] = tile("RD");
    cr_expect_eq(cc_game_new(&g, &s, NULL), CC_ERR_RIVER_TILE_WITHOUT_RIVER);
    s.deck_len = 0;
    s.start = tile("RB");
    cr_expect_eq(cc_game_new(&g, &s, NULL), CC_ERR_RIVER_TILE_WITHOUT_RIVER);
    s.start = -1;
    s.deck_len = 1;
    s.ruleset = 7;
    cr_expect_eq(cc_game_new(&g, &s, NULL), CC_ERR_BAD_RULESET);
}

Test(rules, turn_order_and_phases)
{
    static struct cc_game g;
    const char *deck[] = {"U", "U"};
    new_game(&g, deck, 2, 0);
    tu_refused(&g, place(1, 0, 0), CC_ERR_WRONG_PHASE);
    struct cc_action d = draw();
    d.seat = 1;
    tu_refused_as(&g, d, CC_ERR_NOT_YOUR_TURN);
    ok(&g, draw());
    tu_refused(&g, draw(), CC_ERR_WRONG_PHASE);
    struct cc_action p = place(1, 0, 0);
    p.rot = 4;
    tu_refused(&g, p, CC_ERR_BAD_ROTATION);
    ok(&g, place(1, 0, 0));
    ok(&g, draw());
    ok(&g, place(2, 0, 0));
    cr_expect_eq(g.phase, CC_PHASE_FINISHED);
    tu_refused(&g, draw(), CC_ERR_GAME_FINISHED);
}

Test(rules, placement_refusals)
{
    static struct cc_game g;
    const char *deck[] = {"U", "E", "C"};
    new_game(&g, deck, 3, 0);
    ok(&g, draw());
    tu_refused(&g, place(0, 0, 0), CC_ERR_POSITION_TAKEN);
    tu_refused(&g, place(5, 5, 0), CC_ERR_NOT_ADJACENT);
    tu_refused(&g, place(1, 1, 0), CC_ERR_NOT_ADJACENT);        /* corner only */
    tu_refused(&g, place(0, -1, 0), CC_ERR_EDGES_DO_NOT_MATCH); /* field against D's city */
    tu_refused(&g, place(1, 0, 1), CC_ERR_EDGES_DO_NOT_MATCH);  /* field against D's road */
    tu_refused(&g, place(32767, -32768, 0), CC_ERR_NOT_ADJACENT);
    ok(&g, place(1, 0, 0));
}

Test(rules, follower_refusals)
{
    static struct cc_game g;
    /* D at (0,0): city N, road E, field S, road W. */
    const char *deck[] = {"E", "U", "N", "U", "U"};
    new_game(&g, deck, 5, 0);
    ok(&g, draw());
    /* E turned 270 has its city west, against D's road; turned 90 a field against it. */
    tu_refused(&g, place(1, 0, 3), CC_ERR_EDGES_DO_NOT_MATCH);
    tu_refused(&g, place(1, 0, 1), CC_ERR_EDGES_DO_NOT_MATCH);
    /* E north of D turned 180: its city faces D's city. No monastery on E. */
    tu_refused(&g, tu_follower(place(0, -1, 2), CC_LOC_C), CC_ERR_NO_FEATURE_THERE);
    tu_refused(&g, tu_follower(place(0, -1, 2), 13), CC_ERR_BAD_LOCATION);
    ok(&g, tu_follower(place(0, -1, 2), CC_LOC_S));
    /* the city D+E is complete: 2 tiles, 4 points, and the follower is back at once */
    cr_expect_eq(g.players[0].score, 4);
    cr_expect_eq(g.players[0].columns[CC_COL_CITY], 4);
    cr_expect_eq(g.players[0].followers, 7);
    ok(&g, draw()); /* U for seat 1: the road east of D, with a follower */
    ok(&g, tu_follower(place(1, 0, 0), CC_LOC_W));
    ok(&g, draw()); /* N for seat 0, north of E (field to field) */
    ok(&g, place(0, -2, 0));
    ok(&g, draw()); /* U for seat 1: the same road is taken, even by the player's own */
    tu_refused(&g, tu_follower(place(2, 0, 0), CC_LOC_E), CC_ERR_FEATURE_OCCUPIED);
    tu_refused(&g, tu_follower(place(2, 0, 0), CC_LOC_W), CC_ERR_FEATURE_OCCUPIED);
    ok(&g, tu_follower(place(2, 0, 0), CC_LOC_NW)); /* the field north of the road */
}

Test(rules, no_followers_left)
{
    static struct cc_game g;
    const char *deck[16];
    for (int i = 0; i < 16; i++) deck[i] = "B";
    new_game(&g, deck, 16, 0);
    /* B is a monastery in a field: a column of them south of D; seat 0 takes each of its
     * monasteries, none of which can complete. */
    int y = 1;
    for (int turn = 0; turn < 14; turn++, y++) {
        ok(&g, draw());
        if (g.seat == 0)
            ok(&g, tu_follower(place(0, y, 0), CC_LOC_C));
        else
            ok(&g, place(0, y, 0));
    }
    cr_expect_eq(g.players[0].followers, 0);
    ok(&g, draw());
    tu_refused(&g, tu_follower(place(0, y, 0), CC_LOC_C), CC_ERR_NO_FOLLOWERS_LEFT);
    ok(&g, place(0, y, 0));
}

Test(rules, river_refusals)
{
    static struct cc_game g;
    /* The spring RA at (0,0) opens east. RD runs W-E at rotation 0; RG bends from W to S. */
    const char *deck[] = {"RD", "RG", "RG", "RL"};
    new_game(&g, deck, 4, 1);
    ok(&g, draw());
    tu_refused(&g, place(0, 1, 0), CC_ERR_RIVER_NOT_CONTINUED); /* fits, but not at the end */
    tu_refused(&g, place(1, 0, 1), CC_ERR_EDGES_DO_NOT_MATCH);  /* field against the river */
    ok(&g, place(1, 0, 0));
    ok(&g, draw());
    tu_refused(&g, tu_follower(place(2, 0, 0), CC_LOC_W), CC_ERR_RIVER_NOT_ALLOWED);
    ok(&g, place(2, 0, 0)); /* flowing east, it turns right (south) */
    ok(&g, draw());
    tu_refused(&g, place(2, 1, 1), CC_ERR_RIVER_U_TURN); /* right again: west */
    ok(&g, place(2, 1, 2));                              /* left: east again */
    ok(&g, draw());
    tu_refused(&g, place(3, 1, 1), CC_ERR_EDGES_DO_NOT_MATCH);
    ok(&g, place(3, 1, 0)); /* the lake */
    cr_expect_eq(g.phase, CC_PHASE_FINISHED);
    cr_expect_eq(g.river_open_side, 0xFF);
}

/* randplay hook: tu_cross_check() in the place phase, while the budget (ctx) lasts. */
static void cross_check(const struct cc_game *g, const struct cc_action *a,
                        const struct cc_events *ev, void *ctx)
{
    (void)a;
    (void)ev;
    unsigned *budget = ctx;
    if (g->phase != CC_PHASE_PLACE || *budget == 0) return;
    (*budget)--;
    tu_cross_check(g, 8);
}

Test(rules, listed_moves_match_the_validator)
{
    static struct cc_game g;
    static struct cc_events ev;
    for (uint64_t seed = 1; seed <= 6; seed++) {
        unsigned budget = 40;
        struct cc_options o = {.river = (uint8_t)(seed & 1)};
        cr_assert(
            randplay_game(&g, &ev, CC_RULESET_CLASSIC, 2, o, seed, NULL, cross_check, &budget));
    }
}
