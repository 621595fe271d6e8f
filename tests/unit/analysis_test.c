/* analysis_test.c: the review of a placement (core/bot_analysis.c): a move far ahead of
 * every other is found best, the worst move loses points, the same arguments give the
 * same review, and the future deck is never read. */
#include <criterion/criterion.h>
#include <string.h>

#include "bot_analysis.h"
#include "randplay.h"
#include "testutil.h"

static struct cc_bot_scratch scratch, again;
static struct cc_game game, work, other;

static const struct cc_analysis_budget budget = {.iterations = 16, .deals = 8};

/* Greedy's margin (projected own score minus the best other's) after move a by the mover. */
static int margin_after(const struct cc_game *g, const struct cc_action *a)
{
    struct cc_player pl[CC_MAX_PLAYERS];
    memcpy(&work, g, sizeof work);
    cr_assert_eq(cc_game_apply(&work, a, NULL), CC_OK);
    cc_projected_scores(&work, pl);
    int best = -1000;
    for (unsigned s = 0; s < g->nplayers; s++)
        if (s != g->seat && pl[s].score > best) best = pl[s].score;
    return pl[g->seat].score - best;
}

/* The moves of g's position with the highest and lowest margin after them, and the gap
 * between the highest and the best move of another square or rotation. */
static int extremes(const struct cc_game *g, struct cc_action *top, struct cc_action *worst)
{
    size_t n = cc_bot_moves(g, &scratch);
    int hi = -10000, lo = 10000, runner = -10000;
    for (size_t i = 0; i < n; i++) {
        struct cc_action a;
        cr_assert(cc_bot_move(&scratch, i, &a));
        int v = margin_after(g, &a);
        if (v > hi) {
            if (!(a.x == top->x && a.y == top->y && a.rot == top->rot)) runner = hi;
            hi = v;
            *top = a;
        } else if (v > runner && !(a.x == top->x && a.y == top->y && a.rot == top->rot)) {
            runner = v;
        }
        if (v < lo) {
            lo = v;
            *worst = a;
        }
    }
    return hi - runner;
}

/* A 2-player classic game (deck `seed`) played by greedy until a position whose best move
 * by greedy's margin beats every move elsewhere by `gap` points or more; false at its end. */
static bool find_clear_position(uint64_t seed, int gap, struct cc_action *top,
                                struct cc_action *worst)
{
    struct cc_setup s = randplay_setup(CC_RULESET_CLASSIC, 2, (struct cc_options){0}, seed);
    cr_assert_eq(cc_game_new(&game, &s, NULL), CC_OK);
    while (game.phase != CC_PHASE_FINISHED) {
        if (game.phase == CC_PHASE_PLACE && game.turn > 6 && extremes(&game, top, worst) >= gap)
            return true;
        struct cc_action a;
        cr_assert_eq(cc_bot_choose(&game, CC_BOT_GREEDY, game.turn, &scratch, &a), CC_OK);
        cr_assert_eq(cc_game_apply(&game, &a, NULL), CC_OK);
    }
    return false;
}

Test(analysis, clear_best_move_is_best_and_the_worst_loses)
{
    unsigned found = 0;
    for (uint64_t seed = 1; seed < 40 && found < 3; seed++) {
        struct cc_action top, worst;
        if (!find_clear_position(seed, 8, &top, &worst)) continue;
        found++;
        struct cc_move_review r;
        cr_assert_eq(cc_analyse_move(&game, &top, &budget, seed, &scratch, &r), CC_OK);
        cr_assert_eq(r.label, CC_MOVE_BEST, "deck %llu: the clear best move lost %.2f",
                     (unsigned long long)seed, r.loss);
        cr_assert_str_eq(cc_move_label_name((enum cc_move_label)r.label), "best");
        cr_assert_eq(cc_analyse_move(&game, &worst, &budget, seed, &scratch, &r), CC_OK);
        cr_assert_gt(r.loss, CC_LOSS_GOOD, "deck %llu: the worst move lost nothing",
                     (unsigned long long)seed);
        cr_assert_gt(r.candidates, 1);
        cr_assert_neq(r.label, CC_MOVE_BEST);
        cr_assert_float_eq(r.best - r.played, r.loss, 1e-9);
    }
    cr_assert_eq(found, 3, "too few positions with a clear best move");
}

Test(analysis, same_arguments_same_review_and_no_peeking)
{
    struct cc_action top, worst;
    cr_assert(find_clear_position(3, 0, &top, &worst));
    struct cc_move_review a, b, c;
    cr_assert_eq(cc_analyse_move(&game, &worst, &budget, 77, &scratch, &a), CC_OK);
    cr_assert_eq(cc_analyse_move(&game, &worst, &budget, 77, &again, &b), CC_OK);
    cr_assert_eq(memcmp(&a, &b, sizeof a), 0, "not repeatable");
    /* The same position with the rest of the pile in another order: the same review. */
    memcpy(&other, &game, sizeof other);
    unsigned rest = (unsigned)(other.deck_len - other.deck_pos);
    cr_assert_gt(rest, 2);
    for (unsigned i = 0; i < rest / 2; i++) {
        uint8_t t = other.deck[other.deck_pos + i];
        other.deck[other.deck_pos + i] = other.deck[other.deck_len - 1 - i];
        other.deck[other.deck_len - 1 - i] = t;
    }
    cr_assert_eq(cc_analyse_move(&other, &worst, &budget, 77, &again, &c), CC_OK);
    cr_assert_eq(memcmp(&a, &c, sizeof a), 0, "the review read the future deck");
}

Test(analysis, labels_and_phases)
{
    cr_assert_eq(cc_move_label_of(0), CC_MOVE_BEST);
    cr_assert_eq(cc_move_label_of(CC_LOSS_GOOD), CC_MOVE_GOOD);
    cr_assert_eq(cc_move_label_of(CC_LOSS_INACCURACY), CC_MOVE_INACCURACY);
    cr_assert_eq(cc_move_label_of(CC_LOSS_MISTAKE), CC_MOVE_MISTAKE);
    cr_assert_eq(cc_move_label_of(CC_LOSS_BLUNDER), CC_MOVE_BLUNDER);
    cr_assert_null(cc_move_label_name(CC_MOVE_LABEL_COUNT));
    struct cc_setup s = randplay_setup(CC_RULESET_CLASSIC, 2, (struct cc_options){0}, 5);
    cr_assert_eq(cc_game_new(&game, &s, NULL), CC_OK);
    struct cc_action d = {.kind = CC_ACTION_DRAW, .seat = game.seat, .tile = CC_NO_TILE};
    struct cc_move_review r;
    cr_assert_eq(cc_analyse_move(&game, &d, &budget, 1, &scratch, &r), CC_ERR_WRONG_PHASE);
}
