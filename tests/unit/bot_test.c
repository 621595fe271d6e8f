/* bot_test.c: the computer players (core/bot.h): every move legal in seeded games of every
 * ruleset and option, determinism, uniform random moves, greedy's best move on built and
 * random positions, seeded ties, and no reading of what the seat to move cannot see. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdlib.h>
#include <string.h>

#include "bot.h"
#include "rng.h"
#include "testutil.h"
#include "randplay.h"

/* A ruleset with its options. */
struct config {
    const char *label;      /* for messages */
    uint8_t ruleset;        /* enum cc_ruleset */
    struct cc_options opts; /* as created */
};

static const struct config configs[] = {
    {"classic standard", CC_RULESET_CLASSIC, {0}},
    {"classic original", CC_RULESET_CLASSIC, {.edition = CC_EDITION_ORIGINAL}},
    {"classic river", CC_RULESET_CLASSIC, {.river = 1}},
    {"classic original river", CC_RULESET_CLASSIC, {.edition = CC_EDITION_ORIGINAL, .river = 1}},
    {"hills", CC_RULESET_HILLS, {0}},
    {"discovery", CC_RULESET_DISCOVERY, {0}},
    {"discovery hand", CC_RULESET_DISCOVERY, {.draw = CC_DRAW_HAND}},
    /* The expansions of classic: every figure, the builder's extra turn
     * (tests/unit/bot_expansions_test.c has each combination and player count). */
    {"classic inns traders river",
     CC_RULESET_CLASSIC,
     {.river = 1, .expansions = CC_EXP_INNS | CC_EXP_TRADERS}},
};
#define NCONFIGS (sizeof configs / sizeof configs[0])

static struct cc_bot_scratch scratch, scratch2;
static struct cc_game work;

/* Iterations the tests give mcts: enough to search, few enough for `make test`. */
#define TEST_ITERATIONS 24
/* And hard, whose iteration plays greedy replies (each a whole move search): a few are
 * enough to exercise the search here (bot_hard_test.c tests its budgets and choices); 24 made
 * this file take minutes. */
#define TEST_HARD_ITERATIONS 3

/* cc_bot_think() with the tests' small iteration budget (random and greedy ignore it). */
static enum cc_status think(const struct cc_game *g, enum cc_bot_level lv, uint64_t seed,
                            struct cc_bot_scratch *s, struct cc_action *a)
{
    const struct cc_bot_budget b = {.iterations =
                                        lv == CC_BOT_HARD ? TEST_HARD_ITERATIONS : TEST_ITERATIONS};
    return cc_bot_think(g, lv, seed, &b, s, a);
}

static void new_game(struct cc_game *g, const struct config *c, unsigned nplayers, uint64_t seed)
{
    struct cc_setup s = randplay_setup(c->ruleset, (uint8_t)nplayers, c->opts, seed);
    cr_assert_eq(cc_game_new(g, &s, NULL), CC_OK, "%s", c->label);
    tu_check(g);
}

/* A 2-player classic game with the given draw order (tile ids). */
static void new_classic(struct cc_game *g, const char *const *deck, int n)
{
    const struct cc_tileset *ts = cc_tileset_get(CC_RULESET_CLASSIC);
    struct cc_setup s = {
        .ruleset = CC_RULESET_CLASSIC, .nplayers = 2, .start = -1, .deck_len = (int16_t)n};
    for (int i = 0; i < n; i++) {
        int t = cc_tileset_find(ts, deck[i]);
        cr_assert_geq(t, 0, "tile %s", deck[i]);
        s.deck[i] = (uint8_t)t;
    }
    cr_assert_eq(cc_game_new(g, &s, NULL), CC_OK);
}

/* The mover's projected score minus the best other seat's after `a` (which must be legal). */
static int margin_after(const struct cc_game *g, const struct cc_action *a)
{
    memcpy(&work, g, sizeof work);
    cr_assert_eq(cc_game_apply(&work, a, NULL), CC_OK);
    struct cc_player pl[CC_MAX_PLAYERS];
    cc_projected_scores(&work, pl);
    int best = -100000;
    for (unsigned s = 0; s < g->nplayers; s++)
        if (s != g->seat && pl[s].score > best) best = pl[s].score;
    return pl[g->seat].score - best;
}

/* Greedy's value of `a` (core/bot.h): its margin, and in a game with the builder 4 more
 * when it earns the mover an extra turn and 1 more when the mover's builder is out after it. */
static int value_after(const struct cc_game *g, const struct cc_action *a)
{
    int v = margin_after(g, a); /* work: the game after a */
    if (!(g->options.expansions & CC_EXP_TRADERS)) return v;
    if (work.extra_turn && work.seat == g->seat && work.phase == CC_PHASE_DRAW) v += 4;
    if (work.players[g->seat].builders == 0) v += 1;
    return v;
}

/* Every move cc_bot_moves() lists for `g` is accepted; returns greedy's best value among
 * them (value_after(): the margin without the builder) and the number of moves reaching it
 * in *nbest. */
static int check_all_moves(const struct cc_game *g, const char *label, unsigned *nbest)
{
    size_t n = cc_bot_moves(g, &scratch2);
    cr_assert_gt(n, 0, "%s: no move listed", label);
    int best = 0;
    *nbest = 0;
    for (size_t i = 0; i < n; i++) {
        struct cc_action a;
        cr_assert(cc_bot_move(&scratch2, i, &a));
        int m = value_after(g, &a);
        if (*nbest == 0 || m > best) {
            best = m;
            *nbest = 1;
        } else if (m == best) {
            (*nbest)++;
        }
    }
    struct cc_action a;
    cr_assert_not(cc_bot_move(&scratch2, n, &a));
    return best;
}

/* Every move of `g` (the draw in the draw phase) applied to a copy and undone by
 * cc_game_reset() gives the game back byte for byte. */
static void check_reset(const struct cc_game *g)
{
    static struct cc_game copy;
    memcpy(&copy, g, sizeof copy);
    size_t n = cc_bot_moves(g, &scratch2);
    if (g->phase == CC_PHASE_DRAW) {
        struct cc_action d = {.kind = CC_ACTION_DRAW, .seat = g->seat};
        cr_assert_eq(cc_game_apply(&copy, &d, NULL), CC_OK);
        cc_game_reset(&copy, g);
        cr_assert_eq(memcmp(&copy, g, sizeof copy), 0, "reset after a draw");
    }
    for (size_t i = 0; i < n; i++) {
        struct cc_action a;
        cr_assert(cc_bot_move(&scratch2, i, &a));
        cr_assert_eq(cc_game_apply(&copy, &a, NULL), CC_OK);
        cc_game_reset(&copy, g);
        cr_assert_eq(memcmp(&copy, g, sizeof copy), 0, "reset after move %zu of %zu", i, n);
    }
}

/* Plays `games` games of `c` (2 to 5 players), seats taking random, greedy and mcts in turn,
 * checking every move, the game after it, the bot's canonical copy and mcts's last simulated
 * game; every `full`-th place turn all listed moves are applied and greedy's choice is checked
 * to have the best margin. */
static void play_checked(const struct config *c, unsigned games, unsigned full)
{
    static struct cc_game g;
    unsigned long moves = 0, kinds[CC_FOLLOW_WITHDRAW + 1] = {0};
    for (unsigned k = 0; k < games; k++) {
        new_game(&g, c, 2 + k % 4, 77 + k);
        unsigned place_turns = 0;
        while (g.phase != CC_PHASE_FINISHED) {
            enum cc_bot_level lv = (enum cc_bot_level)((g.seat + k) % CC_BOT_LEVEL_COUNT);
            uint64_t seed = k * 1000003ull + g.turn;
            struct cc_action a;
            bool place = g.phase == CC_PHASE_PLACE;
            if (g.turn % 7 == k % 7) check_reset(&g);
            cr_assert_eq(think(&g, lv, seed, &scratch, &a), CC_OK, "%s", c->label);
            cr_assert_eq(a.seat, g.seat);
            if (place) {
                tu_check(&scratch.root); /* the canonical copy is a sound game too */
                /* and so is a determinized deal played on (a whole game lies between) */
                if (lv == CC_BOT_MCTS && scratch.iterations) tu_check(&scratch.sim);
                moves++;
                cr_assert_leq(a.follow, CC_FOLLOW_WITHDRAW);
                kinds[a.follow]++;
                if (place_turns++ % full == 0) {
                    unsigned nbest;
                    int best = check_all_moves(&g, c->label, &nbest);
                    if (lv == CC_BOT_GREEDY)
                        cr_assert_eq(value_after(&g, &a), best, "%s: greedy missed the best",
                                     c->label);
                }
            } else {
                cr_assert_eq(a.kind, CC_ACTION_DRAW);
            }
            enum cc_status st = cc_game_apply(&g, &a, NULL);
            cr_assert_eq(st, CC_OK, "%s game %u turn %u: %s refused: %s", c->label, k, g.turn,
                         cc_bot_level_name(lv), cc_status_name(st));
            tu_check(&g);
        }
    }
    cr_assert_gt(moves, 400, "%s: %lu moves", c->label, moves);
    /* The ruleset's own follow-ups were chosen too. */
    cr_assert_gt(kinds[CC_FOLLOW_NONE], 0, "%s", c->label);
    cr_assert_gt(kinds[CC_FOLLOW_FOLLOWER], 0, "%s", c->label);
    if (c->ruleset == CC_RULESET_HILLS) {
        cr_assert_gt(kinds[CC_FOLLOW_STABLE], 0, "%s", c->label);
        cr_assert_gt(kinds[CC_FOLLOW_HIKE], 0, "%s", c->label);
    }
    if (c->ruleset == CC_RULESET_DISCOVERY)
        cr_assert_gt(kinds[CC_FOLLOW_WITHDRAW], 0, "%s", c->label);
    cr_log_info("%s: %lu moves: %lu none, %lu followers, %lu stables, %lu hikes, %lu withdrawals",
                c->label, moves, kinds[0], kinds[1], kinds[2], kinds[3], kinds[4]);
}

/* One test for each config: its index in `configs` (Criterion's shared memory holds the
 * parameters, where a test process finds them at the same address). */
ParameterizedTestParameters(bot, legal)
{
    return tu_index_params(NCONFIGS);
}
ParameterizedTest(size_t *index, bot, legal)
{
    play_checked(&configs[*index], 12, 5);
}
Test(bot, legal_classic_expansions)
{
    play_checked(&configs[7], 12, 5);
}

Test(bot, draw_phase_finished_game_and_levels)
{
    static struct cc_game g;
    new_game(&g, &configs[0], 2, 1);
    struct cc_action a;
    cr_assert_eq(cc_bot_choose(&g, CC_BOT_GREEDY, 1, &scratch, &a), CC_OK);
    cr_assert_eq(a.kind, CC_ACTION_DRAW);
    cr_assert_eq(cc_bot_moves(&g, &scratch), 0);
    cr_assert_eq(cc_bot_choose(&g, CC_BOT_LEVEL_COUNT, 1, &scratch, &a), CC_ERR_BAD_OPTION);
    const char *const deck[] = {"E"};
    new_classic(&g, deck, 1);
    tu_ok(&g, (struct cc_action){.kind = CC_ACTION_DRAW}, NULL);
    tu_ok(&g, tu_place(0, -1, 2, CC_NO_TILE), NULL);
    cr_assert_eq(g.phase, CC_PHASE_FINISHED);
    cr_assert_eq(cc_bot_choose(&g, CC_BOT_RANDOM, 1, &scratch, &a), CC_ERR_GAME_FINISHED);
    enum cc_bot_level lv;
    cr_assert(cc_bot_level_parse("greedy", &lv));
    cr_assert_eq(lv, CC_BOT_GREEDY);
    cr_assert(cc_bot_level_parse("random", &lv));
    cr_assert_eq(lv, CC_BOT_RANDOM);
    cr_assert(cc_bot_level_parse("mcts", &lv));
    cr_assert_eq(lv, CC_BOT_MCTS);
    cr_assert_not(cc_bot_level_parse("minimax", &lv));
    cr_assert_str_eq(cc_bot_level_name(CC_BOT_GREEDY), "greedy");
    cr_assert_null(cc_bot_level_name(CC_BOT_LEVEL_COUNT));
}

/* The index of `a` among the moves of scratch2 (listed for the same game), or -1. */
static long move_index(size_t n, const struct cc_action *a)
{
    for (size_t i = 0; i < n; i++) {
        struct cc_action b;
        cr_assert(cc_bot_move(&scratch2, i, &b));
        if (memcmp(&b, a, sizeof b) == 0) return (long)i;
    }
    return -1;
}

/* Random moves over many seeds on the place turn of `g`: every move appears, and the counts
 * pass a (loose: about six standard deviations) chi-square test of uniformity. */
static void check_uniform(const struct cc_game *g)
{
    size_t n = cc_bot_moves(g, &scratch2);
    cr_assert_gt(n, 2, "%zu moves (phase %u)", n, g->phase);
    cr_assert_lt(n, 400, "%zu moves", n);
    static unsigned count[400];
    memset(count, 0, sizeof count);
    unsigned per = 100, samples = (unsigned)n * per;
    for (unsigned s = 0; s < samples; s++) {
        struct cc_action a;
        cr_assert_eq(cc_bot_choose(g, CC_BOT_RANDOM, s, &scratch, &a), CC_OK);
        long i = move_index(n, &a);
        cr_assert_geq(i, 0, "a random move that is not listed");
        count[i]++;
    }
    double chi2 = 0;
    for (size_t i = 0; i < n; i++) {
        cr_assert_gt(count[i], 0, "move %zu of %zu never chosen", i, n);
        chi2 += (count[i] - (double)per) * (count[i] - (double)per) / per;
    }
    double df = (double)n - 1, sd = df; /* sd: the square root of 2 df, by Newton */
    for (int i = 0; i < 40; i++) sd = (sd + 2 * df / sd) / 2;
    cr_assert_lt(chi2, df + 6 * sd, "chi2 %.1f with %.0f degrees of freedom", chi2, df);
}

Test(bot, random_is_uniform_over_placement_and_follow_up)
{
    static struct cc_game g;
    /* Classic, the first turn: every (placement, follow-up) pair alike. */
    const char *const deck[] = {"K", "E", "E"};
    new_classic(&g, deck, 3);
    tu_ok(&g, (struct cc_action){.kind = CC_ACTION_DRAW}, NULL);
    check_uniform(&g);
    /* Discovery with hands of two: both hand tiles, all placements and follow-ups. */
    new_game(&g, &configs[6], 2, 5);
    check_uniform(&g);
    /* Hills a few turns in (stables, hikes possibly). */
    new_game(&g, &configs[4], 2, 9);
    for (int i = 0; i < 9 || g.phase != CC_PHASE_PLACE; i++) {
        struct cc_action a;
        cr_assert_eq(cc_bot_choose(&g, CC_BOT_GREEDY, (uint64_t)i, &scratch, &a), CC_OK);
        tu_ok(&g, a, NULL);
    }
    check_uniform(&g);
}

Test(bot, same_arguments_same_move)
{
    static struct cc_game g;
    for (unsigned c = 0; c < NCONFIGS; c++) {
        new_game(&g, &configs[c], 3, 40 + c);
        unsigned differ = 0;
        for (int turn = 0; g.phase != CC_PHASE_FINISHED && turn < 40; turn++) {
            for (unsigned lv = 0; lv < CC_BOT_LEVEL_COUNT; lv++) {
                struct cc_action a, b, other;
                cr_assert_eq(think(&g, lv, 99, &scratch, &a), CC_OK);
                /* A scratch left in another state changes nothing. */
                memset(&scratch2, 0xA5, sizeof scratch2);
                cr_assert_eq(think(&g, lv, 99, &scratch2, &b), CC_OK);
                cr_assert_eq(memcmp(&a, &b, sizeof a), 0, "%s: %s", configs[c].label,
                             cc_bot_level_name(lv));
                cr_assert_eq(think(&g, lv, 100, &scratch, &other), CC_OK);
                differ += memcmp(&a, &other, sizeof a) != 0;
            }
            struct cc_action a;
            cr_assert_eq(cc_bot_choose(&g, CC_BOT_RANDOM, (uint64_t)turn, &scratch, &a), CC_OK);
            tu_ok(&g, a, NULL);
        }
        cr_assert_gt(differ, 0, "%s: the seed never mattered", configs[c].label);
    }
}

Test(bot, greedy_completes_a_city_with_a_follower)
{
    static struct cc_game g;
    /* Turn 1: an E closing the start tile's city (north of it, turned 180) with a follower
     * on it scores 4; no other move comes close. */
    const char *const deck[] = {"E", "V", "V"};
    new_classic(&g, deck, 3);
    tu_ok(&g, (struct cc_action){.kind = CC_ACTION_DRAW}, NULL);
    for (uint64_t seed = 0; seed < 8; seed++) {
        struct cc_action a;
        cr_assert_eq(cc_bot_choose(&g, CC_BOT_GREEDY, seed, &scratch, &a), CC_OK);
        cr_assert_eq(a.x, 0);
        cr_assert_eq(a.y, -1);
        cr_assert_eq(a.rot, 2);
        cr_assert_eq(a.follow, CC_FOLLOW_FOLLOWER);
        cr_assert_eq(margin_after(&g, &a), 4);
        cr_assert_eq(work.players[0].columns[CC_COL_CITY], 4); /* the city, closed */
    }
}

Test(bot, greedy_completes_its_own_city_over_lesser_moves)
{
    static struct cc_game g;
    /* Seat 0 holds the one-tile city of an E south of the start (open to the south); seat 1
     * has closed the start tile's city. Seat 0 draws an E: closing its own city (4 points,
     * the follower back) and a follower on the new tile's field beats every other move. */
    const char *const deck[] = {"E", "E", "E", "V"};
    new_classic(&g, deck, 4);
    struct cc_action draw = {.kind = CC_ACTION_DRAW};
    tu_ok(&g, draw, NULL);
    tu_ok(&g, tu_follower(tu_place(0, 1, 2, CC_NO_TILE), CC_LOC_S), NULL);
    tu_ok(&g, draw, NULL);
    tu_ok(&g, tu_follower(tu_place(0, -1, 2, CC_NO_TILE), CC_LOC_S), NULL);
    cr_assert_eq(g.players[1].score, 4);
    tu_ok(&g, draw, NULL);
    unsigned nbest;
    int best = check_all_moves(&g, "own city", &nbest);
    struct cc_action a;
    cr_assert_eq(cc_bot_choose(&g, CC_BOT_GREEDY, 3, &scratch, &a), CC_OK);
    cr_assert_eq(margin_after(&g, &a), best);
    cr_assert_eq(a.x, 0);
    cr_assert_eq(a.y, 2);
    cr_assert_eq(a.rot, 0);
    tu_ok(&g, a, NULL);
    cr_assert_eq(g.players[0].columns[CC_COL_CITY], 4); /* its city scored */
}

Test(bot, greedy_breaks_ties_by_its_seed)
{
    static struct cc_game g;
    /* Find a place turn with several best moves, then ask with many seeds. */
    unsigned found = 0;
    for (uint64_t game = 0; game < 20 && !found; game++) {
        new_game(&g, &configs[0], 2, 300 + game);
        while (g.phase != CC_PHASE_FINISHED && !found) {
            struct cc_action a;
            if (g.phase == CC_PHASE_PLACE) {
                unsigned nbest;
                int best = check_all_moves(&g, "ties", &nbest);
                if (nbest >= 3) {
                    size_t n = cc_bot_moves(&g, &scratch2);
                    bool seen[CC_MAX_PLACEMENTS * 4] = {0};
                    unsigned distinct = 0;
                    for (uint64_t seed = 0; seed < 64; seed++) {
                        cr_assert_eq(cc_bot_choose(&g, CC_BOT_GREEDY, seed, &scratch, &a), CC_OK);
                        cr_assert_eq(margin_after(&g, &a), best);
                        long i = move_index(n, &a);
                        cr_assert_geq(i, 0);
                        if (i < (long)(sizeof seen) && !seen[i]) {
                            seen[i] = true;
                            distinct++;
                        }
                    }
                    cr_assert_geq(distinct, 2, "%u tied moves, one ever chosen", nbest);
                    found = 1;
                    break;
                }
            }
            cr_assert_eq(cc_bot_choose(&g, CC_BOT_RANDOM, g.turn, &scratch, &a), CC_OK);
            tu_ok(&g, a, NULL);
        }
    }
    cr_assert(found, "no position with tied best moves");
}

/* What a player knows of a pile tile's place (as core/bot.c): river tiles, the lake, land. */
static unsigned pile_class(uint8_t ruleset, uint8_t type)
{
    const struct cc_tile_type *t = &cc_tileset_get((enum cc_ruleset)ruleset)->types[type];
    if (!t->is_river) return 2;
    unsigned rivers = 0;
    for (unsigned s = 0; s < 4; s++) rivers += t->edges[s] == CC_EDGE_RIVER;
    return rivers == 1;
}

/*
 * `g` with everything its seat to move cannot see shuffled by `rng`, as another game the
 * seat could be in: the rest of the pile within each class; in the hand variant the other
 * seats' hands and the pile together (the drawn part of the pile amended to match).
 */
static void shuffle_hidden(struct cc_game *g, struct cc_rng *rng)
{
    g->seed ^= 0x9E3779B97F4A7C15ull; /* it fixes the shuffle: hidden as well */
    if (g->options.draw != CC_DRAW_HAND) {
        for (unsigned cls = 0; cls < 3; cls++) {
            unsigned idx[CC_MAX_DECK], n = 0;
            uint8_t tiles[CC_MAX_DECK];
            for (unsigned i = g->deck_pos; i < g->deck_len; i++)
                if (pile_class(g->ruleset, g->deck[i]) == cls) {
                    tiles[n] = g->deck[i];
                    idx[n++] = i;
                }
            cc_rng_shuffle(rng, tiles, n);
            for (unsigned i = 0; i < n; i++) g->deck[idx[i]] = tiles[i];
        }
        return;
    }
    uint8_t pool[CC_MAX_DECK + CC_MAX_PLAYERS * CC_HAND_SIZE];
    unsigned n = 0;
    for (unsigned s = 0; s < g->nplayers; s++)
        for (unsigned k = 0; s != g->seat && k < CC_HAND_SIZE; k++)
            if (g->players[s].hand[k] != CC_NO_TILE) pool[n++] = g->players[s].hand[k];
    for (unsigned i = g->deck_pos; i < g->deck_len; i++) pool[n++] = g->deck[i];
    cc_rng_shuffle(rng, pool, n);
    bool changed[CC_MAX_DECK] = {0};
    unsigned j = 0;
    for (unsigned s = 0; s < g->nplayers; s++)
        for (unsigned k = 0; s != g->seat && k < CC_HAND_SIZE; k++) {
            uint8_t old = g->players[s].hand[k];
            if (old == CC_NO_TILE) continue;
            uint8_t now = pool[j++];
            g->players[s].hand[k] = now;
            for (unsigned i = g->nremoved; i < g->deck_pos; i++)
                if (!changed[i] && g->deck[i] == old) {
                    g->deck[i] = now;
                    changed[i] = true;
                    break;
                }
        }
    for (unsigned i = g->deck_pos; i < g->deck_len; i++) g->deck[i] = pool[j++];
}

Test(bot, never_reads_the_pile_order_or_other_hands)
{
    static struct cc_game g, other;
    struct cc_rng rng;
    cc_rng_seed(&rng, 2024);
    for (unsigned c = 0; c < NCONFIGS; c++) {
        new_game(&g, &configs[c], 2 + c % 3, 500 + c);
        unsigned compared = 0, hidden_differs = 0;
        while (g.phase != CC_PHASE_FINISHED) {
            struct cc_action a, b;
            if (g.phase == CC_PHASE_PLACE && g.turn % 3 == 0) {
                other = g;
                shuffle_hidden(&other, &rng);
                tu_check(&other);
                hidden_differs += memcmp(&other, &g, sizeof g) != 0;
                for (unsigned lv = 0; lv < CC_BOT_LEVEL_COUNT; lv++) {
                    cr_assert_eq(think(&g, lv, g.turn, &scratch, &a), CC_OK);
                    cr_assert_eq(think(&other, lv, g.turn, &scratch2, &b), CC_OK);
                    cr_assert_eq(memcmp(&a, &b, sizeof a), 0, "%s: %s read hidden tiles",
                                 configs[c].label, cc_bot_level_name(lv));
                    /* By construction: what the bot works on is the same game. */
                    cr_assert_eq(memcmp(&scratch.root, &scratch2.root, sizeof scratch.root), 0,
                                 "%s: the canonical copies differ", configs[c].label);
                }
                compared++;
            }
            cr_assert_eq(cc_bot_choose(&g, CC_BOT_GREEDY, g.turn, &scratch, &a), CC_OK);
            tu_ok(&g, a, NULL);
        }
        cr_assert_gt(compared, 5);
        cr_assert_gt(hidden_differs, 0, "%s: the shuffles changed nothing", configs[c].label);
    }
}

Test(bot, mcts_plays_whole_games_of_every_ruleset)
{
    static struct cc_game g;
    const struct cc_bot_budget b = {.iterations = 6};
    for (unsigned c = 0; c < NCONFIGS; c++) {
        for (unsigned k = 0; k < 3; k++) {
            new_game(&g, &configs[c], k == 2 ? 4 : 2, 900 + 10 * c + k);
            while (g.phase != CC_PHASE_FINISHED) {
                struct cc_action a;
                cr_assert_eq(cc_bot_think(&g, CC_BOT_MCTS, g.turn * 31u + k, &b, &scratch, &a),
                             CC_OK, "%s", configs[c].label);
                if (g.phase == CC_PHASE_PLACE && scratch.nchildren > 1) { /* else no search */
                    cr_assert_eq(scratch.iterations, 6);
                    tu_check(&scratch.sim);
                }
                enum cc_status st = cc_game_apply(&g, &a, NULL);
                cr_assert_eq(st, CC_OK, "%s game %u turn %u: mcts refused: %s", configs[c].label, k,
                             g.turn, cc_status_name(st));
            }
            tu_check(&g);
        }
    }
}

/* A clock that moves on 1 ms each time it is read. */
static uint64_t fake_now(void *ctx)
{
    uint64_t *t = ctx;
    return *t += 1000;
}

Test(bot, mcts_budgets)
{
    static struct cc_game g;
    new_game(&g, &configs[0], 2, 3);
    struct cc_action a;
    cr_assert_eq(think(&g, CC_BOT_MCTS, 1, &scratch, &a), CC_OK); /* the draw */
    cr_assert_eq(a.kind, CC_ACTION_DRAW);
    tu_ok(&g, a, NULL);
    /* Time only: the clock is read every 8 iterations, 20 ms pass in 20 reads. */
    uint64_t t = 0;
    struct cc_bot_budget b = {.think_us = 20000, .now_us = fake_now, .now_ctx = &t};
    cr_assert_eq(cc_bot_think(&g, CC_BOT_MCTS, 1, &b, &scratch, &a), CC_OK);
    cr_assert_eq(scratch.iterations, 19 * 8, "%u iterations", scratch.iterations);
    tu_ok(&g, a, NULL); /* legal; then back to the same position */
    new_game(&g, &configs[0], 2, 3);
    tu_ok(&g, (struct cc_action){.kind = CC_ACTION_DRAW}, NULL);
    /* Both bounds: the first reached ends it. */
    t = 0;
    b.iterations = 10;
    cr_assert_eq(cc_bot_think(&g, CC_BOT_MCTS, 1, &b, &scratch, &a), CC_OK);
    cr_assert_eq(scratch.iterations, 10);
    /* Time at once up: greedy's best move, no simulation. */
    t = 0;
    b.iterations = 0;
    b.think_us = 1;
    cr_assert_eq(cc_bot_think(&g, CC_BOT_MCTS, 1, &b, &scratch, &a), CC_OK);
    cr_assert_eq(scratch.iterations, 0);
    unsigned nbest;
    cr_assert_eq(margin_after(&g, &a), check_all_moves(&g, "budget", &nbest));
    /* No bound at all, or no budget: the default; cc_bot_choose() is the same. */
    struct cc_action c;
    cr_assert_eq(cc_bot_think(&g, CC_BOT_MCTS, 5, NULL, &scratch, &a), CC_OK);
    cr_assert_eq(scratch.iterations, CC_BOT_MCTS_DEFAULT_ITERATIONS);
    cr_assert_eq(cc_bot_choose(&g, CC_BOT_MCTS, 5, &scratch2, &c), CC_OK);
    cr_assert_eq(memcmp(&a, &c, sizeof a), 0);
    b = (struct cc_bot_budget){.now_us = fake_now, .now_ctx = &t};
    cr_assert_eq(cc_bot_think(&g, CC_BOT_MCTS, 5, &b, &scratch, &c), CC_OK);
    cr_assert_eq(memcmp(&a, &c, sizeof a), 0);
}

Test(bot, mcts_closes_a_city_with_a_follower)
{
    static struct cc_game g;
    /* As greedy_completes_a_city_with_a_follower: the 4 points beat anything else. */
    const char *const deck[] = {"E", "V", "V"};
    new_classic(&g, deck, 3);
    tu_ok(&g, (struct cc_action){.kind = CC_ACTION_DRAW}, NULL);
    const struct cc_bot_budget b = {.iterations = 200};
    for (uint64_t seed = 0; seed < 4; seed++) {
        struct cc_action a;
        cr_assert_eq(cc_bot_think(&g, CC_BOT_MCTS, seed, &b, &scratch, &a), CC_OK);
        cr_assert_eq(margin_after(&g, &a), 4);
    }
}
