/* bot_expansions_test.c: the computer players (core/bot.h) with Inns & Cathedrals and Traders
 * & Builders (issue 24): each level deploys each figure (large follower, builder, pig) and
 * takes the builder's extra turn in seeded games, and no bot move is ever refused in seeded
 * games of every combination (inns, traders, both; River off and on; 2 to 6 players). What
 * the bots may not read is bot_test.c's never_reads_the_pile_order_or_other_hands, which
 * plays the expansions too. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <string.h>

#include "bot.h"
#include "randplay.h"
#include "testutil.h"

static struct cc_bot_scratch scratch;

/* What the bots did, by level. */
struct tally {
    unsigned long figures[CC_BOT_LEVEL_COUNT][CC_PIECE_KIND_COUNT]; /* deployed, by kind */
    unsigned long extra[CC_BOT_LEVEL_COUNT]; /* place moves that earned an extra turn */
    unsigned long taken[CC_BOT_LEVEL_COUNT]; /* extra turns played to the placement */
    unsigned long moves[CC_BOT_LEVEL_COUNT]; /* place moves */
};

/* Plays one game of classic with options `o`, `nplayers` seats, seat s at level
 * levels[(s + shift) % nlevels], mcts thinking `iterations`; asserts that every move is
 * accepted, and the game sound every `check_every` actions and at the end. */
static void play(const struct cc_options *o, unsigned nplayers, uint64_t seed,
                 const enum cc_bot_level *levels, unsigned nlevels, unsigned shift,
                 uint32_t iterations, unsigned check_every, struct tally *t)
{
    static struct cc_game g;
    struct cc_setup s = randplay_setup(CC_RULESET_CLASSIC, (uint8_t)nplayers, *o, seed);
    cr_assert_eq(cc_game_new(&g, &s, NULL), CC_OK);
    const struct cc_bot_budget b = {.iterations = iterations};
    unsigned actions = 0;
    while (g.phase != CC_PHASE_FINISHED) {
        enum cc_bot_level lv = levels[(g.seat + shift) % nlevels];
        struct cc_action a;
        bool extra = g.extra_turn;
        cr_assert_eq(cc_bot_think(&g, lv, seed * 7919u + g.turn, &b, &scratch, &a), CC_OK);
        cr_assert_eq(a.seat, g.seat);
        enum cc_status st = cc_game_apply(&g, &a, NULL);
        cr_assert_eq(st, CC_OK,
                     "expansions %u river %u, %u players, seed %llu, turn %u: %s's move "
                     "(follow %u figure %u) refused: %s",
                     o->expansions, o->river, nplayers, (unsigned long long)seed, g.turn,
                     cc_bot_level_name(lv), a.follow, a.figure, cc_status_name(st));
        if (++actions % check_every == 0) tu_check(&g);
        if (a.kind != CC_ACTION_PLACE) continue;
        t->moves[lv]++;
        t->taken[lv] += extra;
        if (a.follow == CC_FOLLOW_FOLLOWER) t->figures[lv][a.figure]++;
        /* The move earned an extra turn: the same seat draws again. */
        if (g.extra_turn && g.seat == a.seat && g.phase == CC_PHASE_DRAW) t->extra[lv]++;
    }
    tu_check(&g);
}

/* The combinations: each expansion alone and both, River off and on. */
static const struct cc_options combos[] = {
    {.expansions = CC_EXP_INNS},
    {.expansions = CC_EXP_INNS, .river = 1},
    {.expansions = CC_EXP_TRADERS},
    {.expansions = CC_EXP_TRADERS, .river = 1},
    {.expansions = CC_EXP_INNS | CC_EXP_TRADERS},
    {.expansions = CC_EXP_INNS | CC_EXP_TRADERS, .river = 1},
};
#define NCOMBOS (sizeof combos / sizeof combos[0])

ParameterizedTestParameters(bot_expansions, every_move_legal)
{
    return tu_index_params(NCOMBOS);
}

/* Per combination: 2 to 6 players, four games each, the first three levels at every seat in
 * turn (a short mcts search: what is checked is that its moves are legal; hard's are in
 * bot_hard_test.c and below). */
ParameterizedTest(size_t *index, bot_expansions, every_move_legal, .timeout = 600)
{
    const struct cc_options *o = &combos[*index];
    static const enum cc_bot_level levels[] = {CC_BOT_RANDOM, CC_BOT_GREEDY, CC_BOT_MCTS};
    struct tally t = {0};
    for (unsigned players = 2; players <= CC_MAX_PLAYERS; players++)
        for (unsigned k = 0; k < 4; k++)
            play(o, players, 100 * *index + 10 * players + k, levels, 3, players + k, 4, 16, &t);
    unsigned long figures = 0;
    for (unsigned lv = 0; lv < sizeof levels / sizeof levels[0]; lv++) {
        cr_assert_gt(t.moves[lv], 100, "%s: %lu moves", cc_bot_level_name(lv), t.moves[lv]);
        for (unsigned k = CC_PIECE_LARGE; k <= CC_PIECE_PIG; k++) figures += t.figures[lv][k];
    }
    cr_assert_gt(figures, 0, "no figure of the expansions was ever deployed");
}

/* Seeded 2-player games with both expansions where every seat plays `lv`: it deploys the
 * large follower, the builder and the pig, earns extra turns and plays them. */
static void check_level(enum cc_bot_level lv, unsigned games, uint32_t iterations)
{
    const struct cc_options both[2] = {
        {.expansions = CC_EXP_INNS | CC_EXP_TRADERS},
        {.expansions = CC_EXP_INNS | CC_EXP_TRADERS, .river = 1},
    };
    struct tally t = {0};
    for (unsigned k = 0; k < games; k++)
        play(&both[k % 2], 2, 4000 + k, &lv, 1, 0, iterations, 64, &t);
    const char *name = cc_bot_level_name(lv);
    cr_assert_gt(t.figures[lv][CC_PIECE_FOLLOWER], 0, "%s: no follower", name);
    cr_assert_gt(t.figures[lv][CC_PIECE_LARGE], 0, "%s: no large follower", name);
    cr_assert_gt(t.figures[lv][CC_PIECE_BUILDER], 0, "%s: no builder", name);
    cr_assert_gt(t.figures[lv][CC_PIECE_PIG], 0, "%s: no pig", name);
    cr_assert_gt(t.extra[lv], 0, "%s: no extra turn earned", name);
    cr_assert_eq(t.taken[lv], t.extra[lv], "%s: extra turns earned and played differ", name);
    cr_log_info("%s, %u games: %lu moves; %lu followers, %lu large, %lu builders, %lu pigs; "
                "%lu extra turns",
                name, games, t.moves[lv], t.figures[lv][CC_PIECE_FOLLOWER],
                t.figures[lv][CC_PIECE_LARGE], t.figures[lv][CC_PIECE_BUILDER],
                t.figures[lv][CC_PIECE_PIG], t.extra[lv]);
}

Test(bot_expansions, random_deploys_every_figure_and_takes_extra_turns)
{
    check_level(CC_BOT_RANDOM, 4, 0);
}

Test(bot_expansions, greedy_deploys_every_figure_and_takes_extra_turns)
{
    check_level(CC_BOT_GREEDY, 4, 0);
}

Test(bot_expansions, mcts_deploys_every_figure_and_takes_extra_turns, .timeout = 600)
{
    check_level(CC_BOT_MCTS, 2, 24);
}

Test(bot_expansions, hard_deploys_every_figure_and_takes_extra_turns, .timeout = 600)
{
    check_level(CC_BOT_HARD, 2, 8);
}
