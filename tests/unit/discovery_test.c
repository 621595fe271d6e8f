/* discovery_test.c: Carcassonne: The Discovery: the catalogue as the rules count it, the
 * withdrawal and the hand variant's refusals, and whole random games in both draw modes
 * (invariants, replay, snapshots, listed moves, the signature over 10,000 games). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "placement.h"
#include "randplay.h"
#include "testutil.h"

static const struct cc_tileset *cat(void)
{
    const struct cc_tileset *ts = cc_tileset_get(CC_RULESET_DISCOVERY);
    cr_assert_not_null(ts);
    return ts;
}

static uint8_t tile(const char *id)
{
    int t = cc_tileset_find(cat(), id);
    cr_assert_geq(t, 0, "tile %s", id);
    return (uint8_t)t;
}

/* The sides (bit mask, N = bit 0) a feature of a type covers at rotation 0. */
static unsigned feature_sides(const struct cc_feature_type *f)
{
    unsigned sides = 0;
    for (int s = 0; s < 4; s++)
        if (f->slots & (1u << (3 * s + 1))) sides |= 1u << s;
    return sides;
}

/* The totals of docs/rules/discovery-tiles.md, "Totals and checks". */
Test(discovery, catalogue_totals)
{
    const struct cc_tileset *ts = cat();
    unsigned tiles = 0, edges[CC_EDGE_COUNT] = {0}, regions[CC_KIND_COUNT] = {0};
    unsigned one_edge[CC_KIND_COUNT] = {0}, cities = 0, city_tiles = 0;
    unsigned mountain_shore = 0, grass_shore = 0;
    for (int i = 0; i < ts->ntypes; i++) {
        const struct cc_tile_type *t = &ts->types[i];
        tiles += t->count;
        for (int s = 0; s < 4; s++) edges[t->edges[s]] += t->count;
        for (int f = 0; f < t->nfeatures; f++) {
            unsigned k = t->features[f].kind;
            regions[k] += t->count;
            if (__builtin_popcount(feature_sides(&t->features[f])) == 1) one_edge[k] += t->count;
        }
        cities += t->count * t->nports;
        city_tiles += t->nports ? t->count : 0;
        for (int p = 0; p < t->nports; p++) {
            if (t->features[t->port_land[p]].kind == CC_KIND_MOUNTAIN)
                mountain_shore += t->count;
            else
                grass_shore += t->count;
        }
    }
    cr_expect_eq(ts->ntypes, 26);
    cr_expect_eq(tiles, 84);
    cr_expect_eq(ts->land_count, 84);
    cr_expect_str_eq(ts->types[ts->start_type].id, "S");
    cr_expect_eq(edges[CC_EDGE_SEA], 124);
    cr_expect_eq(edges[CC_EDGE_GRASS], 112);
    cr_expect_eq(edges[CC_EDGE_MOUNTAIN], 100);
    cr_expect_eq(edges[CC_EDGE_SEA] + edges[CC_EDGE_GRASS] + edges[CC_EDGE_MOUNTAIN], 4 * 84);
    cr_expect_eq(regions[CC_KIND_SEA], 75);
    cr_expect_eq(regions[CC_KIND_GRASS], 70);
    cr_expect_eq(regions[CC_KIND_MOUNTAIN], 61);
    cr_expect_eq(one_edge[CC_KIND_SEA], 38);
    cr_expect_eq(one_edge[CC_KIND_GRASS], 38);
    cr_expect_eq(one_edge[CC_KIND_MOUNTAIN], 32);
    /* edges minus twice the regions */
    cr_expect_eq((int)edges[CC_EDGE_MOUNTAIN] - 2 * (int)regions[CC_KIND_MOUNTAIN], -22);
    cr_expect_eq((int)edges[CC_EDGE_GRASS] - 2 * (int)regions[CC_KIND_GRASS], -28);
    cr_expect_eq((int)edges[CC_EDGE_SEA] - 2 * (int)regions[CC_KIND_SEA], -26);
    cr_expect_eq(cities, 41);
    cr_expect_eq(city_tiles, 37);
    cr_expect_eq(mountain_shore, 20);
    cr_expect_eq(grass_shore, 21);
}

/* Per type: the counts, and the cities on mountain and grassland shores. */
Test(discovery, catalogue_types)
{
    const struct cc_tileset *ts = cat();
    static const struct {
        const char *id;
        unsigned count, mountain_cities, grass_cities;
    } want[] = {
        {"A", 1, 0, 0}, {"B", 1, 0, 0}, {"C", 1, 0, 0}, {"D", 5, 0, 1}, {"E", 4, 1, 0},
        {"F", 6, 0, 0}, {"G", 4, 1, 0}, {"H", 3, 0, 0}, {"I", 4, 0, 0}, {"J", 5, 0, 0},
        {"K", 5, 1, 0}, {"L", 4, 0, 0}, {"M", 3, 0, 1}, {"N", 3, 0, 0}, {"O", 3, 0, 0},
        {"P", 2, 0, 0}, {"Q", 3, 0, 0}, {"R", 3, 0, 0}, {"S", 4, 1, 1}, {"T", 2, 0, 0},
        {"U", 3, 0, 1}, {"V", 3, 0, 0}, {"W", 3, 0, 1}, {"X", 3, 0, 0}, {"Y", 3, 0, 1},
        {"Z", 3, 1, 0},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const struct cc_tile_type *t = &ts->types[tile(want[i].id)];
        unsigned m = 0, gr = 0;
        for (int p = 0; p < t->nports; p++) {
            m += t->features[t->port_land[p]].kind == CC_KIND_MOUNTAIN;
            gr += t->features[t->port_land[p]].kind == CC_KIND_GRASS;
            /* a port lies between a land and a sea region that hold neighbouring edges */
            cr_expect_eq(t->features[t->port_sea[p]].kind, CC_KIND_SEA);
            unsigned land = feature_sides(&t->features[t->port_land[p]]);
            unsigned sea = feature_sides(&t->features[t->port_sea[p]]);
            unsigned around = ((land << 1) | (land >> 3) | (land >> 1) | (land << 3)) & 15;
            cr_expect(around & sea, "%s port %d", t->id, p);
        }
        cr_expect_eq(t->count, want[i].count, "%s count", t->id);
        cr_expect_eq(m, want[i].mountain_cities, "%s mountain cities", t->id);
        cr_expect_eq(gr, want[i].grass_cities, "%s grassland cities", t->id);
    }
}

/* The types with a one-edge region of each terrain (the closing tiles). */
Test(discovery, catalogue_closing_tiles)
{
    const struct cc_tileset *ts = cat();
    static const char *const want[3] = {"GHNQSUWY", "FIMRSVXYZ", "DEOPTUVWXZ"};
    static const unsigned kinds[3] = {CC_KIND_MOUNTAIN, CC_KIND_GRASS, CC_KIND_SEA};
    for (int k = 0; k < 3; k++) {
        char got[32] = "";
        size_t n = 0;
        for (int i = 0; i < ts->ntypes; i++) {
            const struct cc_tile_type *t = &ts->types[i];
            bool caps = false;
            for (int f = 0; f < t->nfeatures; f++)
                caps |= t->features[f].kind == kinds[k] &&
                        __builtin_popcount(feature_sides(&t->features[f])) == 1;
            if (caps) got[n++] = t->id[0];
        }
        cr_expect_str_eq(got, want[k], "caps of %s", cc_kind_name((enum cc_kind)kinds[k]));
    }
    /* The start tile offers every terrain. */
    const struct cc_tile_type *s = &ts->types[ts->start_type];
    cr_expect_eq(s->edges[0], CC_EDGE_MOUNTAIN);
    cr_expect_eq(s->edges[1], CC_EDGE_GRASS);
    cr_expect_eq(s->edges[2], CC_EDGE_SEA);
    cr_expect_eq(s->edges[3], CC_EDGE_SEA);
    cr_expect_eq(s->nports, 2);
}

Test(discovery, rules_table)
{
    cr_expect_eq(cc_ruleset_followers(CC_RULESET_DISCOVERY), 4);
    cr_expect_eq(cc_ruleset_columns(CC_RULESET_DISCOVERY),
                 (1u << CC_COL_GRASSLAND) | (1u << CC_COL_MOUNTAIN) | (1u << CC_COL_SEA));
}

/* ---- refusals ---- */

static void new_game(struct cc_game *g, uint8_t players, uint8_t draw, const char *const *deck,
                     int n)
{
    struct cc_setup s = {.ruleset = CC_RULESET_DISCOVERY,
                         .nplayers = players,
                         .start = -1,
                         .deck_len = (int16_t)n,
                         .options = {.draw = draw}};
    for (int i = 0; i < n; i++) s.deck[i] = tile(deck[i]);
    cr_assert_eq(cc_game_new(g, &s, NULL), CC_OK);
    tu_check(g);
}

/* A placement of hand tile `id` (NULL: the drawn tile). */
static struct cc_action place(int x, int y, int rot, const char *id)
{
    return tu_place(x, y, rot, id ? tile(id) : CC_NO_TILE);
}

static void draw(struct cc_game *g)
{
    tu_ok(g, (struct cc_action){.kind = CC_ACTION_DRAW}, NULL);
}

static struct cc_action withdraw(struct cc_action a, int fx, int fy, int loc)
{
    a.follow = CC_FOLLOW_WITHDRAW;
    a.fx = (int16_t)fx;
    a.fy = (int16_t)fy;
    a.loc = (uint8_t)loc;
    return a;
}

Test(discovery, withdraw_refusals_and_event)
{
    static struct cc_game g;
    static struct cc_events ev;
    /* S at (0,0): mountain N, grassland E, sea S and W (two cities on that sea). */
    const char *deck[] = {"B", "C", "B", "B"};
    new_game(&g, 2, CC_DRAW_PILE, deck, 4);
    draw(&g);
    tu_ok(&g, tu_follower(place(1, 0, 0, NULL), CC_LOC_W), NULL); /* seat 0 on the grassland */
    draw(&g);
    /* seat 1: the follower at (1,0) is seat 0's */
    tu_refused(&g, withdraw(place(-1, 0, 0, NULL), 1, 0, CC_LOC_N), CC_ERR_NOT_YOUR_FOLLOWER);
    tu_refused(&g, withdraw(place(-1, 0, 0, NULL), 1, 0, 13), CC_ERR_BAD_LOCATION);
    tu_refused(&g, withdraw(place(-1, 0, 0, NULL), 1, 0, 255), CC_ERR_BAD_LOCATION);
    tu_refused(&g, withdraw(place(-1, 0, 0, NULL), 0, 0, CC_LOC_E), CC_ERR_NO_FOLLOWER_THERE);
    tu_refused(&g, withdraw(place(-1, 0, 0, NULL), 1, 0, CC_LOC_C), CC_ERR_NO_FOLLOWER_THERE);
    tu_refused(&g, withdraw(place(-1, 0, 0, NULL), 9, 9, CC_LOC_N), CC_ERR_NO_FOLLOWER_THERE);
    tu_refused(&g, withdraw(place(-1, 0, 0, NULL), -1, 0, CC_LOC_N), CC_ERR_NO_FOLLOWER_THERE);
    struct cc_action st = place(-1, 0, 0, NULL);
    st.follow = CC_FOLLOW_STABLE;
    st.loc = CC_LOC_N;
    tu_refused(&g, st, CC_ERR_FOLLOWUP_NOT_IN_RULESET);
    st.follow = CC_FOLLOW_HIKE;
    tu_refused(&g, st, CC_ERR_FOLLOWUP_NOT_IN_RULESET);
    st.follow = 99;
    tu_refused(&g, st, CC_ERR_BAD_LOCATION);
    tu_refused(&g, tu_follower(place(-1, 0, 0, NULL), CC_LOC_C), CC_ERR_NO_FEATURE_THERE);
    tu_ok(&g, place(-1, 0, 0, NULL), NULL);
    draw(&g);
    /* seat 0 places the third B east and takes its explorer back at once: 3 tiles */
    tu_ok(&g, withdraw(place(2, 0, 0, NULL), 1, 0, CC_LOC_SE), &ev);
    const struct cc_event *e = NULL;
    for (size_t i = 0; i < ev.n; i++)
        if (ev.ev[i].type == CC_EV_FOLLOWER_WITHDRAWN) e = &ev.ev[i];
    cr_assert_not_null(e);
    cr_expect_eq(e->seat, 0);
    cr_expect_eq(e->seats, 1);
    cr_expect_eq(e->x, 1);
    cr_expect_eq(e->y, 0);
    cr_expect_eq(e->loc, CC_LOC_W); /* where it stood */
    cr_expect_eq(e->tile, tile("B"));
    cr_expect_eq(e->kind, CC_KIND_GRASS);
    cr_expect_eq(e->column, CC_COL_GRASSLAND);
    cr_expect_eq(e->points, 3);
    cr_expect_eq(e->tiles, 3);
    cr_expect_eq(e->count, 0);
    cr_expect_eq(g.players[0].score, 3);
    cr_expect_eq(g.players[0].followers, 4);
    /* the last tile: no follower left on the board, nothing more to score */
    draw(&g);
    tu_ok(&g, place(3, 0, 0, NULL), &ev);
    cr_expect_eq(g.phase, CC_PHASE_FINISHED);
    cr_expect_eq(g.players[0].score, 3);
}

/* Two followers of different seats in one grassland joined later: at the end each scores
 * the whole region for its owner, one event each. */
Test(discovery, final_event_per_follower)
{
    static struct cc_game g;
    static struct cc_events ev;
    const char *deck[] = {"B", "D", "B"};
    new_game(&g, 2, CC_DRAW_PILE, deck, 3);
    draw(&g);
    tu_ok(&g, tu_follower(place(1, 0, 0, NULL), CC_LOC_W), NULL); /* start's grassland + B */
    draw(&g);
    /* D at (0,1): its sea joins the start's, its grassland (E, S, W) stands alone */
    tu_ok(&g, tu_follower(place(0, 1, 0, NULL), CC_LOC_E), NULL);
    draw(&g);
    /* B at (1,1) joins the two grasslands: 4 tiles; the joined region is taken */
    tu_refused(&g, tu_follower(place(1, 1, 0, NULL), CC_LOC_N), CC_ERR_FEATURE_OCCUPIED);
    tu_ok(&g, place(1, 1, 0, NULL), &ev);
    cr_assert_eq(g.phase, CC_PHASE_FINISHED);
    unsigned finals = 0;
    for (size_t i = 0; i < ev.n; i++) {
        const struct cc_event *e = &ev.ev[i];
        if (e->type != CC_EV_FINAL_SCORED) continue;
        cr_expect_eq(e->seats, 1u << finals);
        cr_expect_eq(e->kind, CC_KIND_GRASS);
        cr_expect_eq(e->column, CC_COL_GRASSLAND);
        cr_expect_eq(e->points, 4);
        cr_expect_eq(e->tiles, 4);
        finals++;
    }
    cr_expect_eq(finals, 2);
    cr_expect_eq(ev.ev[ev.n - 1].type, CC_EV_GAME_FINISHED);
    cr_expect_eq(ev.ev[ev.n - 1].seats, 3); /* a tie */
    cr_expect_eq(g.players[0].columns[CC_COL_GRASSLAND], 4);
    cr_expect_eq(g.players[1].columns[CC_COL_GRASSLAND], 4);
}

/* ---- the hand variant ---- */

Test(discovery, hand_refusals)
{
    static struct cc_game g;
    /* seat 0 holds B and C, seat 1 A and D; the pile is B */
    const char *deck[] = {"B", "C", "A", "D", "B"};
    new_game(&g, 2, CC_DRAW_HAND, deck, 5);
    cr_expect_eq(g.phase, CC_PHASE_PLACE);
    cr_expect_eq(g.drawn, CC_NO_TILE);
    cr_expect_eq(g.nremoved, 0, "a custom deck loses no tile");
    cr_expect_eq(g.players[0].hand[0], tile("B"));
    cr_expect_eq(g.players[0].hand[1], tile("C"));
    cr_expect_eq(g.players[1].hand[0], tile("A"));
    cr_expect_eq(g.players[1].hand[1], tile("D"));
    cr_expect_eq(cc_tiles_remaining(&g), 5);
    tu_refused(&g, (struct cc_action){.kind = CC_ACTION_DRAW}, CC_ERR_WRONG_PHASE);
    tu_refused(&g, place(1, 0, 0, NULL), CC_ERR_TILE_REQUIRED);
    tu_refused(&g, place(1, 0, 0, "A"), CC_ERR_TILE_NOT_IN_HAND);
    tu_refused(&g, place(1, 0, 0, "Z"), CC_ERR_TILE_NOT_IN_HAND);
    struct cc_action bogus = place(1, 0, 0, NULL);
    bogus.tile = 200;
    tu_refused(&g, bogus, CC_ERR_TILE_NOT_IN_HAND);
    tu_refused(&g, place(1, 0, 0, "C"), CC_ERR_EDGES_DO_NOT_MATCH);
    tu_refused(&g, tu_follower(place(1, 0, 0, "B"), CC_LOC_C), CC_ERR_NO_FEATURE_THERE);
    struct cc_action other = place(1, 0, 0, "B");
    other.seat = 1;
    struct cc_events *ev = malloc(sizeof *ev);
    ev->n = 0;
    cr_expect_eq(cc_game_apply(&g, &other, ev), CC_ERR_NOT_YOUR_TURN);
    /* the listed placements: B (4 at (1,0)) then C (4 at (0,1), 4 at (-1,0)) */
    static struct cc_placement list[CC_MAX_PLACEMENTS];
    size_t n = cc_legal_placements(&g, list, CC_MAX_PLACEMENTS, true);
    cr_assert_eq(n, 12);
    for (size_t i = 0; i < n; i++) cr_expect_eq(list[i].tile, tile(i < 4 ? "B" : "C"));
    tu_ok(&g, place(1, 0, 0, "B"), ev);
    /* seat 0 drew the B of the pile as its replacement, after the placement */
    cr_expect_eq(g.players[0].hand[0], tile("C"));
    cr_expect_eq(g.players[0].hand[1], tile("B"));
    cr_expect_eq(g.deck_pos, g.deck_len);
    cr_expect_eq(ev->ev[ev->n - 1].type, CC_EV_HAND_DEALT);
    cr_expect_eq(ev->ev[ev->n - 1].seat, 0);
    cr_expect_eq(g.seat, 1);
    cr_expect_eq(g.turn, 2);
    cr_expect_eq(cc_tiles_remaining(&g), 4);
    free(ev);
}

static unsigned count_events(const struct cc_events *ev, enum cc_event_type t)
{
    unsigned n = 0;
    for (size_t i = 0; i < ev->n; i++) n += ev->ev[i].type == t;
    return n;
}

/* The standard pile: 1, 2, 3, 3 tiles removed for 2, 3, 4, 5 players, the first of the
 * shuffled pile; then two tiles per seat, in seat order. */
Test(discovery, hand_setup_with_the_standard_pile)
{
    static struct cc_game g, pile;
    static struct cc_events ev;
    static const unsigned removed[CC_MAX_PLAYERS + 1] = {0, 0, 1, 2, 3, 3};
    for (uint8_t players = 2; players <= 5; players++) {
        struct cc_setup s = {.ruleset = CC_RULESET_DISCOVERY,
                             .nplayers = players,
                             .seed = 99,
                             .start = -1,
                             .deck_len = -1};
        cr_assert_eq(cc_game_new(&pile, &s, NULL), CC_OK);
        s.options.draw = CC_DRAW_HAND;
        ev.n = 0;
        cr_assert_eq(cc_game_new(&g, &s, &ev), CC_OK);
        tu_check(&g);
        /* the same shuffle in both modes */
        cr_expect_eq(g.deck_len, 83);
        cr_expect_eq(memcmp(g.deck, pile.deck, g.deck_len), 0);
        cr_expect_eq(g.nremoved, removed[players]);
        cr_expect_eq((83 - g.nremoved) % players, 0, "every player gets as many turns");
        cr_expect_eq(memcmp(g.removed, g.deck, g.nremoved), 0);
        cr_expect_eq(count_events(&ev, CC_EV_TILES_REMOVED), g.nremoved);
        cr_expect_eq(count_events(&ev, CC_EV_HAND_DEALT) - count_events(&ev, CC_EV_TILE_DISCARDED),
                     2u * players);
        for (unsigned k = 0; k < g.nremoved; k++) {
            cr_expect_eq(ev.ev[k].type, CC_EV_TILES_REMOVED);
            cr_expect_eq(ev.ev[k].tile, g.deck[k]);
        }
        /* dealt in seat order, two each, from the tiles after the removed ones */
        for (unsigned k = 0; k < 2u * players; k++) {
            const struct cc_event *e = &ev.ev[g.nremoved + k];
            cr_expect_eq(e->type, CC_EV_HAND_DEALT);
            cr_expect_eq(e->seat, k / 2);
            cr_expect_eq(e->tile, g.deck[g.nremoved + k]);
        }
        cr_expect_eq(cc_tiles_remaining(&g), 83 - g.nremoved);
    }
    /* the option is discovery's alone */
    struct cc_setup c = {.ruleset = CC_RULESET_CLASSIC, .nplayers = 2, .start = -1, .deck_len = -1};
    c.options.draw = CC_DRAW_HAND;
    cr_expect_eq(cc_game_new(&g, &c, NULL), CC_ERR_BAD_OPTION);
    c.ruleset = CC_RULESET_DISCOVERY;
    c.options.draw = 2;
    cr_expect_eq(cc_game_new(&g, &c, NULL), CC_ERR_BAD_OPTION);
}

/* A hand tile that fits nowhere is set aside at the start of its holder's turn and
 * replaced at once, again if needed; a seat left without a tile is skipped. */
Test(discovery, hand_set_aside_and_skip)
{
    static struct cc_game g;
    static struct cc_events ev;
    /* seat 0: G, B; seat 1: C, A; pile: A, A, D */
    const char *deck[] = {"G", "B", "C", "A", "A", "A", "D"};
    new_game(&g, 2, CC_DRAW_HAND, deck, 7);
    /* G turned 180 at (0,-1) closes the only open mountain side: no A fits any more */
    tu_ok(&g, place(0, -1, 2, "G"), &ev);
    cr_expect_eq(g.seat, 1);
    cr_expect_eq(g.ndiscarded, 2);
    cr_expect_eq(g.players[1].hand[0], tile("C"));
    cr_expect_eq(g.players[1].hand[1], tile("D"));
    cr_expect_eq(g.players[0].hand[0], tile("B"));
    cr_expect_eq(g.players[0].hand[1], tile("A"));
    cr_expect_eq(count_events(&ev, CC_EV_TILE_DISCARDED), 2);
    tu_ok(&g, place(0, 1, 0, "C"), &ev);
    /* seat 0's A goes at the start of its turn, with no replacement left */
    cr_expect_eq(g.seat, 0);
    cr_expect_eq(g.ndiscarded, 3);
    cr_expect_eq(g.players[0].hand[0], tile("B"));
    cr_expect_eq(g.players[0].hand[1], CC_NO_TILE);
    tu_ok(&g, place(1, 0, 0, "B"), &ev);
    cr_expect_eq(g.seat, 1);
    tu_ok(&g, place(2, 0, 0, "D"), &ev);
    cr_expect_eq(g.phase, CC_PHASE_FINISHED);
    cr_expect_eq(cc_tiles_remaining(&g), 0);
    tu_refused(&g, place(3, 0, 0, "B"), CC_ERR_GAME_FINISHED);
}

/* Seat 1's only tile is set aside with the pile empty: seat 0 moves twice in a row. */
Test(discovery, hand_empty_seat_is_skipped)
{
    static struct cc_game g;
    const char *deck[] = {"G", "B", "A", "C", "B", "C"};
    new_game(&g, 3, CC_DRAW_HAND, deck, 6);
    /* seat 0: G, B; seat 1: A, C; seat 2: B, C */
    tu_ok(&g, place(0, -1, 2, "G"), NULL);
    cr_expect_eq(g.seat, 1);
    cr_expect_eq(g.players[1].hand[0], tile("C"));
    tu_ok(&g, place(0, 1, 0, "C"), NULL);
    cr_expect_eq(g.seat, 2);
    tu_ok(&g, place(1, 0, 0, "B"), NULL);
    cr_expect_eq(g.seat, 0);
    tu_ok(&g, place(2, 0, 0, "B"), NULL);
    cr_expect_eq(g.seat, 2, "seat 1 holds nothing and is skipped");
    tu_ok(&g, place(-1, 0, 0, "C"), NULL);
    cr_expect_eq(g.phase, CC_PHASE_FINISHED);
}

/* A snapshot with a hand that does not add up is refused. */
Test(discovery, hand_snapshot_is_checked)
{
    static struct cc_game g, back;
    static uint8_t buf[CC_SNAPSHOT_MAX];
    const char *deck[] = {"B", "C", "A", "D", "B"};
    new_game(&g, 2, CC_DRAW_HAND, deck, 5);
    size_t len = cc_game_encode(&g, buf, sizeof buf);
    cr_assert_gt(len, 0);
    cr_assert_eq(cc_game_decode(&back, buf, len), CC_OK);
    cr_assert_eq(memcmp(&back, &g, sizeof g), 0);
    static struct cc_game bad;
    bad = g;
    bad.players[1].hand[1] = tile("C"); /* a tile that was never dealt */
    len = cc_game_encode(&bad, buf, sizeof buf);
    cr_expect_eq(cc_game_decode(&back, buf, len), CC_ERR_CORRUPT);
    bad = g;
    bad.players[0].hand[0] = CC_NO_TILE; /* a hand with a gap while the pile lasts */
    len = cc_game_encode(&bad, buf, sizeof buf);
    cr_expect_eq(cc_game_decode(&back, buf, len), CC_ERR_CORRUPT);
    bad = g;
    bad.drawn = tile("B"); /* no drawn tile in this variant */
    cr_expect_eq(cc_game_check(&bad), CC_ERR_CORRUPT);
    bad = g;
    bad.nremoved = 1;
    bad.removed[0] = g.deck[0];
    cr_expect_eq(cc_game_check(&bad), CC_ERR_CORRUPT);
}

/* ---- whole random games ---- */

#define MAX_LOG 512

struct recorder {
    struct cc_action log[MAX_LOG]; /* actions in order */
    size_t n;                      /* recorded */
    unsigned withdrawals;          /* accepted withdrawals */
    unsigned cross_checks;         /* positions left to cross-check against the validator */
};

static void record(const struct cc_game *g, const struct cc_action *a, const struct cc_events *ev,
                   void *ctx)
{
    struct recorder *r = ctx;
    cr_assert_lt(r->n, MAX_LOG);
    r->log[r->n++] = *a;
    r->withdrawals += a->follow == CC_FOLLOW_WITHDRAW;
    /* one withdrawal event per withdrawal, and it pays its owner */
    unsigned withdrawn = 0;
    for (size_t i = 0; i < ev->n; i++) withdrawn += ev->ev[i].type == CC_EV_FOLLOWER_WITHDRAWN;
    cr_assert_eq(withdrawn, a->follow == CC_FOLLOW_WITHDRAW);
    tu_check(g);
    tu_check_snapshot(g);
    if (r->cross_checks > 0 && g->phase == CC_PHASE_PLACE) {
        r->cross_checks--;
        tu_cross_check(g, 6);
    }
}

static struct cc_events events;

Test(discovery, random_games_keep_every_invariant, .timeout = 120)
{
    static struct cc_game g, again;
    static struct recorder r;
    unsigned withdrawals = 0;
    for (uint64_t seed = 1; seed <= 48; seed++) {
        uint8_t players = (uint8_t)(2 + seed % 4);
        struct cc_options o = {.draw = (uint8_t)((seed / 4) % 2)};
        memset(&r, 0, sizeof r);
        r.cross_checks = seed <= 8 ? 12 : 0;
        cr_assert(
            randplay_game(&g, &events, CC_RULESET_DISCOVERY, players, o, seed, NULL, record, &r),
            "seed %llu: a listed move was refused", (unsigned long long)seed);
        cr_assert_eq(g.phase, CC_PHASE_FINISHED);
        withdrawals += r.withdrawals;
        /* every tile of the pile placed, set aside or removed; no hand holds one */
        cr_expect_eq(g.deck_len, 83);
        cr_expect_eq(g.nboard - 1 + g.ndiscarded + g.nremoved, 83);
        cr_expect_eq(g.nremoved, o.draw ? (players == 2 ? 1 : players == 3 ? 2 : 3) : 0);
        for (unsigned s = 0; s < players; s++) {
            cr_expect_eq(g.players[s].hand[0], CC_NO_TILE);
            cr_expect_eq(g.players[s].hand[1], CC_NO_TILE);
        }
        /* replaying the log gives the same state, byte for byte */
        struct cc_setup s = tu_setup(CC_RULESET_DISCOVERY, players, o, seed);
        tu_assert_replays(&g, &s, r.log, r.n, &again);
    }
    cr_expect_gt(withdrawals, 100, "the random player withdraws");
}

/* In the hand variant without set-asides every seat places the same number of tiles. */
Test(discovery, hand_turns_are_equal)
{
    static struct cc_game g;
    unsigned equal = 0;
    for (uint64_t seed = 1; seed <= 40; seed++) {
        uint8_t players = (uint8_t)(2 + seed % 4);
        struct cc_options o = {.draw = CC_DRAW_HAND};
        static struct recorder r;
        memset(&r, 0, sizeof r);
        cr_assert(
            randplay_game(&g, &events, CC_RULESET_DISCOVERY, players, o, seed, NULL, record, &r));
        if (g.ndiscarded != 0) continue;
        unsigned per_seat[CC_MAX_PLAYERS] = {0};
        for (size_t i = 0; i < r.n; i++) per_seat[r.log[i].seat]++;
        for (unsigned s = 1; s < players; s++) cr_expect_eq(per_seat[s], per_seat[0]);
        equal++;
    }
    cr_expect_gt(equal, 10);
}

/*
 * The signature: a hash over the final states of 10,000 seeded random discovery games (2 to
 * 5 players, both draw modes). Any change of behaviour changes it; when a change is
 * intended, update the constant and say why in the commit.
 */
#define SIGNATURE 0x002fbe16e5bd0687ull

/* Both draw modes, by turns. */
static struct cc_options signature_options(uint64_t seed)
{
    return (struct cc_options){.draw = (uint8_t)(seed & 1)};
}

Test(discovery, signature_of_10000_games, .timeout = 240)
{
    uint64_t h = tu_signature(CC_RULESET_DISCOVERY, signature_options, 10000);
    cr_expect_eq(h, SIGNATURE, "signature 0x%016llx", (unsigned long long)h);
}

/* A finished hand-of-two game is replayed from the pile shown once it is over (the pile
 * after the face-up removals, since a custom deck removes none): same moves, same
 * board, same scores. */
Test(discovery, hand_game_replays_from_its_shown_deck)
{
    static struct cc_game g, again;
    static struct recorder r;
    for (uint64_t seed = 1; seed <= 4; seed++) {
        memset(&r, 0, sizeof r);
        uint8_t players = (uint8_t)(2 + seed % 4);
        struct cc_options o = {.draw = CC_DRAW_HAND};
        cr_assert(
            randplay_game(&g, &events, CC_RULESET_DISCOVERY, players, o, seed, NULL, record, &r));
        struct cc_setup s = {.ruleset = CC_RULESET_DISCOVERY,
                             .nplayers = players,
                             .options = o,
                             .start = -1,
                             .deck_len = (int16_t)(g.deck_len - g.nremoved)};
        memcpy(s.deck, g.deck + g.nremoved, (size_t)s.deck_len);
        cr_assert_eq(cc_game_new(&again, &s, NULL), CC_OK);
        for (size_t i = 0; i < r.n; i++)
            cr_assert_eq(cc_game_apply(&again, &r.log[i], NULL), CC_OK, "move %zu", i);
        cr_expect_eq(again.phase, CC_PHASE_FINISHED);
        cr_expect_eq(memcmp(again.board, g.board, sizeof g.board), 0);
        cr_expect_eq(memcmp(again.players, g.players, sizeof g.players), 0);
        cr_expect_eq(memcmp(again.discarded, g.discarded, sizeof g.discarded), 0);
    }
}
