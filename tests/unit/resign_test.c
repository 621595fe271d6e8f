/* resign_test.c: resignations (core/resign.c) in every ruleset: the seat to move in the
 * draw and the place phase, other seats, the hand variant, down to one seat left in;
 * random games with resignations keep every invariant and snapshot, and bots still only
 * find legal moves. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "bot.h"
#include "rng.h"
#include "testutil.h"
#include "randplay.h"

static struct cc_events events;

/* A standard game of `ruleset` with `n` seats from `seed`. */
static void new_game(struct cc_game *g, uint8_t ruleset, uint8_t n, struct cc_options o,
                     uint64_t seed)
{
    struct cc_setup s = randplay_setup(ruleset, n, o, seed);
    cr_assert_eq(cc_game_new(g, &s, NULL), CC_OK);
}

static struct cc_action resign_of(unsigned seat)
{
    struct cc_action a;
    memset(&a, 0, sizeof a);
    a.kind = CC_ACTION_RESIGN;
    a.seat = (uint8_t)seat;
    a.tile = CC_NO_TILE;
    return a;
}

/* Seat `seat` resigns through cc_game_apply; asserts success, invariants and snapshot. */
static void resign(struct cc_game *g, unsigned seat)
{
    events.n = 0;
    struct cc_action a = resign_of(seat);
    cr_assert_eq(cc_game_apply(g, &a, &events), CC_OK);
    cr_assert_gt(events.n, 0);
    cr_assert_eq(events.ev[0].type, CC_EV_SEAT_RESIGNED);
    cr_assert_eq(events.ev[0].seat, seat);
    cr_assert(cc_seat_resigned(g, seat));
    tu_check(g);
    tu_check_snapshot(g);
}

/* The count of events of `type` in the last action's events. */
static unsigned count_events(enum cc_event_type type)
{
    unsigned n = 0;
    for (size_t i = 0; i < events.n; i++) n += events.ev[i].type == type;
    return n;
}

static unsigned pieces_of(const struct cc_game *g, unsigned seat)
{
    unsigned n = 0;
    for (int i = 0; i < CC_MAX_PIECES; i++) n += g->pieces[i].used && g->pieces[i].seat == seat;
    return n;
}

/* Plays `turns` random-ish turns with the greedy bot (which must find legal moves). */
static void play_turns(struct cc_game *g, unsigned turns, struct cc_bot_scratch *sc)
{
    static unsigned played; /* across calls, so that the levels and seeds vary */
    for (unsigned n = 0; n < turns && g->phase != CC_PHASE_FINISHED; n++) {
        unsigned k = played++;
        struct cc_action a;
        cr_assert_eq(cc_bot_choose(g, k % 2 ? CC_BOT_GREEDY : CC_BOT_RANDOM, k, sc, &a), CC_OK);
        cr_assert(!cc_seat_resigned(g, a.seat), "a bot moved for a resigned seat");
        events.n = 0;
        cr_assert_eq(cc_game_apply(g, &a, &events), CC_OK, "a bot move was refused");
        tu_check(g);
    }
}

static struct cc_bot_scratch *scratch(void)
{
    static struct cc_bot_scratch *sc;
    if (!sc) sc = malloc(sizeof *sc);
    cr_assert_not_null(sc);
    return sc;
}

/* Plays until the seat to move is in phase `phase` with some pieces on the board. */
static void play_until(struct cc_game *g, enum cc_phase phase, unsigned min_turns)
{
    struct cc_bot_scratch *sc = scratch();
    while (g->phase != CC_PHASE_FINISHED && (g->turn < min_turns || g->phase != phase))
        play_turns(g, 1, sc);
    cr_assert_neq(g->phase, CC_PHASE_FINISHED);
}

Test(resign, two_players_the_seat_to_move_in_the_draw_phase)
{
    static struct cc_game g;
    new_game(&g, CC_RULESET_CLASSIC, 2, (struct cc_options){0}, 7);
    play_until(&g, CC_PHASE_DRAW, 12);
    unsigned seat = g.seat, other = 1 - seat, had = pieces_of(&g, seat);
    resign(&g, seat);
    cr_expect_eq(g.phase, CC_PHASE_FINISHED);
    cr_expect_eq(cc_game_result(&g), CC_RESULT_RESIGNATION);
    cr_expect_eq(cc_winners(&g), 1u << other);
    cr_expect_eq(pieces_of(&g, seat), 0);
    cr_expect_eq(count_events(CC_EV_PIECE_REMOVED), had);
    cr_expect_eq(events.ev[events.n - 1].type, CC_EV_GAME_FINISHED);
    cr_expect_eq(events.ev[events.n - 1].seats, 1u << other);
    /* Finished: nobody can resign or act any more; nothing changes. */
    tu_refused_as(&g, resign_of(other), CC_ERR_GAME_FINISHED);
    tu_refused_as(&g, resign_of(seat), CC_ERR_GAME_FINISHED);
}

Test(resign, the_seat_not_to_move_resigns_and_its_score_stays)
{
    static struct cc_game g;
    new_game(&g, CC_RULESET_CLASSIC, 2, (struct cc_options){0}, 11);
    play_until(&g, CC_PHASE_PLACE, 20);
    unsigned mover = g.seat, out = 1 - mover;
    struct cc_player before = g.players[out];
    resign(&g, out);
    cr_expect_eq(g.phase, CC_PHASE_FINISHED);
    cr_expect_eq(cc_winners(&g), 1u << mover);
    /* Its own points stay; its pieces scored nothing at the end. */
    cr_expect_eq(g.players[out].score, before.score);
    for (size_t i = 0; i < events.n; i++)
        if (events.ev[i].type == CC_EV_FINAL_SCORED)
            cr_expect_eq(events.ev[i].seats & (1u << out), 0);
}

Test(resign, the_best_score_resigned_ranks_last)
{
    static struct cc_game g;
    new_game(&g, CC_RULESET_CLASSIC, 3, (struct cc_options){0}, 13);
    struct cc_bot_scratch *sc = scratch();
    /* Play until one seat leads alone. */
    unsigned lead = CC_NO_SEAT;
    while (g.phase != CC_PHASE_FINISHED && lead == CC_NO_SEAT) {
        play_turns(&g, 1, sc);
        unsigned w = cc_winners(&g);
        if (w && !(w & (w - 1)) && g.players[__builtin_ctz(w)].score > 0)
            lead = (unsigned)__builtin_ctz(w);
    }
    cr_assert_neq(lead, CC_NO_SEAT, "nobody ever led");
    cr_assert_neq(g.phase, CC_PHASE_FINISHED, "the game ended on the lead (turn %u)", g.turn);
    int best = g.players[lead].score;
    resign(&g, lead);
    cr_expect_eq(g.players[lead].score, best);
    for (unsigned s = 0; s < 3; s++)
        if (s != lead) cr_expect_lt(g.players[s].score, best);
    cr_expect_eq(cc_winners(&g) & (1u << lead), 0, "the resigned leader still wins");
    cr_expect_neq(cc_winners(&g), 0);
    while (g.phase != CC_PHASE_FINISHED) play_turns(&g, 1, sc);
    cr_expect_eq(cc_winners(&g) & (1u << lead), 0, "the resigned leader won at the end");
    cr_expect_eq(cc_game_result(&g), CC_RESULT_COMPLETED);
}

Test(resign, three_players_the_seat_to_move_in_the_place_phase_puts_the_tile_back)
{
    static struct cc_game g;
    new_game(&g, CC_RULESET_CLASSIC, 3, (struct cc_options){.river = 1}, 5);
    play_until(&g, CC_PHASE_PLACE, 15);
    unsigned seat = g.seat, turn = g.turn, pos = g.deck_pos;
    uint8_t drawn = g.drawn;
    resign(&g, seat);
    cr_expect_eq(events.ev[0].tile, drawn);
    cr_expect_eq(g.phase, CC_PHASE_DRAW);
    cr_expect_eq(g.deck_pos, pos - 1);
    cr_expect_eq(g.deck[g.deck_pos], drawn);
    cr_expect_eq(g.seat, (seat + 1) % 3);
    cr_expect_eq(g.turn, turn);
    cr_expect_eq(pieces_of(&g, seat), 0);
    /* The resigned seat cannot act, nor resign again; nothing changes. */
    struct cc_action draw = {.kind = CC_ACTION_DRAW, .seat = (uint8_t)seat, .tile = CC_NO_TILE};
    tu_refused_as(&g, draw, CC_ERR_NOT_YOUR_TURN);
    tu_refused_as(&g, resign_of(seat), CC_ERR_ALREADY_RESIGNED);
    tu_refused_as(&g, resign_of(7), CC_ERR_NOT_YOUR_TURN);
    /* Later turns skip it: play rounds and watch the seats to move. */
    struct cc_bot_scratch *sc = scratch();
    for (unsigned k = 0; k < 30 && g.phase != CC_PHASE_FINISHED; k++) {
        cr_expect_neq(g.seat, seat);
        play_turns(&g, 1, sc);
    }
    /* Down to one: the last but one resigns. */
    if (g.phase != CC_PHASE_FINISHED) {
        unsigned next = cc_next_seat(&g, g.seat);
        resign(&g, next);
        cr_expect_eq(g.phase, CC_PHASE_FINISHED);
        cr_expect_eq(cc_game_result(&g), CC_RESULT_RESIGNATION);
        cr_expect_eq(cc_winners(&g), cc_seats_in(&g));
        cr_expect_eq(__builtin_popcount(cc_seats_in(&g)), 1);
    }
}

Test(resign, a_game_played_to_its_end_after_a_resignation_is_completed)
{
    static struct cc_game g;
    new_game(&g, CC_RULESET_CLASSIC, 3, (struct cc_options){0}, 3);
    play_until(&g, CC_PHASE_DRAW, 4);
    resign(&g, (g.seat + 2) % 3);
    unsigned out = (unsigned)__builtin_ctz(~cc_seats_in(&g) & 7u);
    struct cc_bot_scratch *sc = scratch();
    while (g.phase != CC_PHASE_FINISHED) {
        cr_assert_neq(g.seat, out);
        play_turns(&g, 1, sc);
    }
    cr_expect_eq(cc_game_result(&g), CC_RESULT_COMPLETED);
    cr_expect_eq(cc_winners(&g) & (1u << out), 0);
    tu_check_snapshot(&g);
}

Test(resign, hills_stables_and_hikers_leave)
{
    static struct cc_game g;
    new_game(&g, CC_RULESET_HILLS, 3, (struct cc_options){0}, 21);
    play_until(&g, CC_PHASE_DRAW, 30);
    unsigned seat = (g.seat + 1) % 3;
    struct cc_player before = g.players[seat];
    resign(&g, seat);
    cr_expect_eq(pieces_of(&g, seat), 0);
    cr_expect_eq(g.players[seat].stables, 2); /* both back in its supply */
    cr_expect_eq(memcmp(g.players[seat].harvest, before.harvest, sizeof before.harvest), 0);
    play_turns(&g, 20, scratch());
}

Test(resign, hand_variant_the_seat_to_move_and_down_to_one)
{
    static struct cc_game g;
    new_game(&g, CC_RULESET_DISCOVERY, 3, (struct cc_options){.draw = CC_DRAW_HAND}, 9);
    play_until(&g, CC_PHASE_PLACE, 10);
    unsigned seat = g.seat, turn = g.turn, discarded = g.ndiscarded;
    unsigned held =
        (g.players[seat].hand[0] != CC_NO_TILE) + (g.players[seat].hand[1] != CC_NO_TILE);
    resign(&g, seat);
    cr_expect_eq(g.players[seat].hand[0], CC_NO_TILE);
    cr_expect_eq(g.players[seat].hand[1], CC_NO_TILE);
    cr_expect_geq(g.ndiscarded, discarded + held);
    cr_expect_eq(g.turn, turn);
    cr_expect_neq(g.seat, seat);
    cr_expect_eq(g.phase, CC_PHASE_PLACE);
    play_turns(&g, 12, scratch());
    cr_assert_neq(g.phase, CC_PHASE_FINISHED);
    /* A seat not to move resigns: the last one in wins, holding its hand. */
    unsigned other = cc_next_seat(&g, g.seat), last = g.seat;
    resign(&g, other);
    cr_expect_eq(g.phase, CC_PHASE_FINISHED);
    cr_expect_eq(cc_game_result(&g), CC_RESULT_RESIGNATION);
    cr_expect_eq(cc_winners(&g), 1u << last);
}

Test(resign, hand_variant_two_players_the_seat_to_move)
{
    static struct cc_game g;
    new_game(&g, CC_RULESET_DISCOVERY, 2, (struct cc_options){.draw = CC_DRAW_HAND}, 4);
    play_until(&g, CC_PHASE_PLACE, 5);
    unsigned seat = g.seat;
    resign(&g, seat);
    cr_expect_eq(g.phase, CC_PHASE_FINISHED);
    cr_expect_eq(cc_winners(&g), 1u << (1 - seat));
}

Test(resign, snapshots_without_resignations_are_unchanged)
{
    static struct cc_game g, back;
    static uint8_t buf[CC_SNAPSHOT_MAX + 1];
    new_game(&g, CC_RULESET_CLASSIC, 3, (struct cc_options){0}, 1);
    size_t n = cc_game_encode(&g, buf, sizeof buf);
    cr_assert_gt(n, 0);
    /* A trailing byte 0 is not a canonical encoding: refused. */
    buf[n] = 0;
    cr_expect_eq(cc_game_decode(&back, buf, n + 1), CC_ERR_CORRUPT);
    /* A resigned seat adds one byte, and a seat outside the game is refused. */
    resign(&g, 2);
    size_t m = cc_game_encode(&g, buf, sizeof buf);
    cr_expect_eq(m, n + 1);
    buf[m - 1] = 0x10;
    cr_expect_eq(cc_game_decode(&back, buf, m), CC_ERR_CORRUPT);
}

/* Random games of every ruleset with resignations at random moments: every invariant and
 * snapshot after every action, bots find only legal moves, and the game ends. */
static void random_games(uint8_t ruleset, struct cc_options o, unsigned games)
{
    static struct cc_game g;
    struct cc_bot_scratch *sc = scratch();
    for (uint64_t seed = 1; seed <= games; seed++) {
        uint8_t n = (uint8_t)(2 + seed % 4);
        new_game(&g, ruleset, n, o, seed);
        struct cc_rng rng;
        cc_rng_seed(&rng, seed * 77);
        unsigned guard = 0;
        while (g.phase != CC_PHASE_FINISHED) {
            cr_assert_lt(guard++, 1000);
            if (cc_rng_below(&rng, 25) == 0) {
                unsigned in = cc_seats_in(&g), s;
                do s = cc_rng_below(&rng, n);
                while (!(in >> s & 1u));
                resign(&g, s);
                continue;
            }
            struct cc_action a;
            cr_assert_eq(cc_bot_choose(&g, CC_BOT_RANDOM, seed + guard, sc, &a), CC_OK);
            events.n = 0;
            cr_assert_eq(cc_game_apply(&g, &a, &events), CC_OK);
            tu_check(&g);
            tu_check_snapshot(&g);
        }
        unsigned w = cc_winners(&g);
        cr_expect(w != 0 && (w & ~cc_seats_in(&g)) == 0, "a resigned seat won");
    }
}

Test(resign, random_classic, .timeout = 120)
{
    random_games(CC_RULESET_CLASSIC, (struct cc_options){0}, 12);
    random_games(CC_RULESET_CLASSIC, (struct cc_options){.river = 1, .edition = 1}, 8);
}

Test(resign, random_hills, .timeout = 120)
{
    random_games(CC_RULESET_HILLS, (struct cc_options){0}, 12);
}

Test(resign, random_discovery, .timeout = 120)
{
    random_games(CC_RULESET_DISCOVERY, (struct cc_options){0}, 10);
    random_games(CC_RULESET_DISCOVERY, (struct cc_options){.draw = CC_DRAW_HAND}, 10);
}
