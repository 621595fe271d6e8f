/* bot_hard_test.c: the hard computer player (core/bot_hard.c): legal moves in every ruleset
 * and option set and player count, the same move for the same arguments, its budgets, and
 * its exact search of the last tiles against every move tried by hand. */
#include <criterion/criterion.h>
#include <string.h>

#include "bot.h"
#include "randplay.h"
#include "testutil.h"

static struct cc_bot_scratch scratch, again;
static struct cc_game game, after;

/* Every ruleset and option the bots play, the expansions' figures and extra turn too. */
static const struct {
    const char *label;
    uint8_t ruleset;
    struct cc_options opts;
} setups[] = {
    {"classic standard", CC_RULESET_CLASSIC, {0}},
    {"classic original river", CC_RULESET_CLASSIC, {.edition = CC_EDITION_ORIGINAL, .river = 1}},
    {"classic inns traders", CC_RULESET_CLASSIC, {.expansions = CC_EXP_INNS | CC_EXP_TRADERS}},
    {"hills", CC_RULESET_HILLS, {0}},
    {"discovery", CC_RULESET_DISCOVERY, {0}},
    {"discovery hand", CC_RULESET_DISCOVERY, {.draw = CC_DRAW_HAND}},
};
#define NSETUPS (sizeof setups / sizeof setups[0])

/* A game of setup c (2 + k % 3 seats) played to its end, hard in seat 0 thinking `iters`
 * iterations and greedy in the others: every hard move is accepted, and thought again from
 * another scratch it is the same move. Returns how many exact searches ran. */
static unsigned play_hard(unsigned c, unsigned k, uint32_t iters)
{
    struct cc_setup s =
        randplay_setup(setups[c].ruleset, (uint8_t)(2 + k % 3), setups[c].opts, 40 + 7 * c + k);
    cr_assert_eq(cc_game_new(&game, &s, NULL), CC_OK, "%s", setups[c].label);
    const struct cc_bot_budget b = {.iterations = iters};
    unsigned exact = 0, moves = 0;
    while (game.phase != CC_PHASE_FINISHED) {
        struct cc_action a, twice;
        enum cc_bot_level lv = game.seat == 0 ? CC_BOT_HARD : CC_BOT_GREEDY;
        uint64_t seed = game.turn * 977u + k;
        cr_assert_eq(cc_bot_think(&game, lv, seed, &b, &scratch, &a), CC_OK, "%s", setups[c].label);
        if (lv == CC_BOT_HARD && game.phase == CC_PHASE_PLACE) {
            moves++;
            exact += scratch.exact_nodes > 0;
            if (scratch.iterations) tu_check(&scratch.sim); /* a deal played on is sound */
            cr_assert_eq(cc_bot_think(&game, lv, seed, &b, &again, &twice), CC_OK);
            cr_assert_eq(memcmp(&a, &twice, sizeof a), 0, "%s turn %u: not repeatable",
                         setups[c].label, game.turn);
        }
        enum cc_status st = cc_game_apply(&game, &a, NULL);
        cr_assert_eq(st, CC_OK, "%s turn %u: %s refused: %s", setups[c].label, game.turn,
                     cc_bot_level_name(lv), cc_status_name(st));
    }
    tu_check(&game);
    cr_assert_gt(moves, 5, "%s", setups[c].label);
    return exact;
}

Test(bot_hard, legal_and_repeatable_in_every_ruleset_and_seat_count)
{
    unsigned exact = 0;
    for (unsigned c = 0; c < NSETUPS; c++)
        for (unsigned k = 0; k < 2; k++) exact += play_hard(c, k, 4);
    cr_assert_gt(exact, 0, "the exact search never ran");
    enum cc_bot_level lv;
    cr_assert(cc_bot_level_parse("hard", &lv));
    cr_assert_eq(lv, CC_BOT_HARD);
    cr_assert_str_eq(cc_bot_level_name(CC_BOT_HARD), "hard");
}

/* A clock that moves on 1 ms each time it is read. */
static uint64_t fake_now(void *ctx)
{
    uint64_t *t = ctx;
    return *t += 1000;
}

Test(bot_hard, budgets)
{
    struct cc_setup s = randplay_setup(CC_RULESET_CLASSIC, 2, (struct cc_options){0}, 3);
    cr_assert_eq(cc_game_new(&game, &s, NULL), CC_OK);
    tu_ok(&game, (struct cc_action){.kind = CC_ACTION_DRAW}, NULL);
    struct cc_action a, c;
    /* Time only: the clock is read every 4 iterations, 20 ms pass in 20 reads. */
    uint64_t t = 0;
    struct cc_bot_budget b = {.think_us = 20000, .now_us = fake_now, .now_ctx = &t};
    cr_assert_eq(cc_bot_think(&game, CC_BOT_HARD, 1, &b, &scratch, &a), CC_OK);
    cr_assert_eq(scratch.iterations, 19 * 4, "%u iterations", scratch.iterations);
    /* No bound: the default; cc_bot_choose() is the same. */
    cr_assert_eq(cc_bot_think(&game, CC_BOT_HARD, 5, NULL, &scratch, &a), CC_OK);
    cr_assert_eq(scratch.iterations, CC_BOT_HARD_DEFAULT_ITERATIONS);
    cr_assert_eq(cc_bot_choose(&game, CC_BOT_HARD, 5, &again, &c), CC_OK);
    cr_assert_eq(memcmp(&a, &c, sizeof a), 0);
    tu_ok(&game, a, NULL);
}

/* Each seat's final score minus the best other seat's, with a win (a share of it when tied)
 * first, after `a` ends `g`. */
static double final_value(const struct cc_game *g, const struct cc_action *a)
{
    memcpy(&after, g, sizeof after);
    cr_assert_eq(cc_game_apply(&after, a, NULL), CC_OK);
    cr_assert_eq(after.phase, CC_PHASE_FINISHED);
    int me = after.players[g->seat].score, best = -100000, level = 0;
    for (unsigned s = 0; s < g->nplayers; s++) {
        if (s == g->seat) continue;
        if (after.players[s].score > best) level = 0;
        if (after.players[s].score >= best) {
            best = after.players[s].score;
            level++;
        }
    }
    double win = me > best ? 1 : me < best ? 0 : 1.0 / (1 + level);
    return 1000 * win + (me - best);
}

Test(bot_hard, solves_the_last_tile)
{
    unsigned solved = 0;
    for (unsigned c = 0; c < NSETUPS; c++) {
        if (setups[c].opts.draw == CC_DRAW_HAND) continue; /* hidden hands: not solved */
        struct cc_setup s = randplay_setup(setups[c].ruleset, 2 + c % 2, setups[c].opts, 90 + c);
        cr_assert_eq(cc_game_new(&game, &s, NULL), CC_OK);
        while (game.phase != CC_PHASE_FINISHED) {
            struct cc_action a;
            bool last = game.phase == CC_PHASE_PLACE && game.deck_pos == game.deck_len;
            enum cc_bot_level lv = last ? CC_BOT_HARD : CC_BOT_GREEDY;
            cr_assert_eq(cc_bot_think(&game, lv, game.turn, NULL, &scratch, &a), CC_OK);
            if (last) {
                cr_assert_gt(scratch.exact_nodes, 0, "%s", setups[c].label);
                double best = -1e9, got = final_value(&game, &a);
                size_t n = cc_bot_moves(&game, &again);
                for (size_t i = 0; i < n; i++) {
                    struct cc_action m;
                    cr_assert(cc_bot_move(&again, i, &m));
                    double v = final_value(&game, &m);
                    best = v > best ? v : best;
                }
                cr_assert_eq(got, best, "%s: %.1f, the best %.1f", setups[c].label, got, best);
                solved++;
            }
            tu_ok(&game, a, NULL);
        }
    }
    cr_assert_gt(solved, 3);
}
