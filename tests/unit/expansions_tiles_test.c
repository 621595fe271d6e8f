/* expansions_tiles_test.c: the catalogues of Inns & Cathedrals and Traders & Builders as
 * shared/rules/expansions.md counts them, and the notation they add. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "tiles.h"

/* What one set of the classic catalogue holds, summed over its tiles (copies counted). */
struct set_counts {
    unsigned types, tiles, inns, cathedrals, pennants, monasteries, goods[CC_GOODS_COUNT];
    unsigned without_goods; /* tiles with no goods symbol */
};

static struct set_counts count_set(enum cc_set set)
{
    const struct cc_tileset *ts = cc_tileset_get(CC_RULESET_CLASSIC);
    cr_assert_not_null(ts);
    struct set_counts c;
    memset(&c, 0, sizeof c);
    for (int i = 0; i < ts->ntypes; i++) {
        const struct cc_tile_type *t = &ts->types[i];
        if (t->set != set) continue;
        c.types++;
        c.tiles += t->count;
        unsigned goods = 0;
        for (int f = 0; f < t->nfeatures; f++) {
            const struct cc_feature_type *ft = &t->features[f];
            c.inns += t->count * ft->inn;
            c.cathedrals += t->count * ft->cathedral;
            c.pennants += t->count * ft->pennants;
            c.monasteries += t->count * (ft->kind == CC_KIND_MONASTERY);
            for (int g = 0; g < CC_GOODS_COUNT; g++) {
                c.goods[g] += t->count * ft->goods[g];
                goods += ft->goods[g];
            }
            if (ft->inn) cr_expect_eq(ft->kind, CC_KIND_ROAD, "%s: an inn on a road", t->id);
            if (ft->cathedral || goods)
                cr_expect(ft->kind == CC_KIND_CITY || goods, "%s: on a city", t->id);
        }
        c.without_goods += goods == 0 ? t->count : 0;
    }
    return c;
}

Test(expansion_tiles, inns_counts)
{
    struct set_counts c = count_set(CC_SET_INNS);
    cr_expect_eq(c.types, 17);
    cr_expect_eq(c.tiles, 18);
    cr_expect_eq(c.cathedrals, 2);
    cr_expect_eq(c.inns, 6);
    cr_expect_eq(c.pennants, 3);
    cr_expect_eq(c.monasteries, 1);
    for (int g = 0; g < CC_GOODS_COUNT; g++) cr_expect_eq(c.goods[g], 0);
}

Test(expansion_tiles, traders_counts)
{
    struct set_counts c = count_set(CC_SET_TRADERS);
    cr_expect_eq(c.types, 24);
    cr_expect_eq(c.tiles, 24);
    cr_expect_eq(c.goods[CC_GOODS_WINE], 9);
    cr_expect_eq(c.goods[CC_GOODS_GRAIN], 6);
    cr_expect_eq(c.goods[CC_GOODS_CLOTH], 5);
    cr_expect_eq(c.without_goods, 4);
    cr_expect_eq(c.pennants, 0);
    cr_expect_eq(c.monasteries, 1);
    cr_expect_eq(c.inns, 0);
    cr_expect_eq(c.cathedrals, 0);
}

/* The base set and the River are what they were: the expansions only add types after them. */
Test(expansion_tiles, base_and_river_unchanged)
{
    struct set_counts base = count_set(CC_SET_BASE), river = count_set(CC_SET_RIVER);
    cr_expect_eq(base.types, 24);
    cr_expect_eq(base.tiles, 72);
    cr_expect_eq(river.tiles, 12);
    const struct cc_tileset *ts = cc_tileset_get(CC_RULESET_CLASSIC);
    cr_expect_str_eq(ts->types[0].id, "A");
    cr_expect_str_eq(ts->types[24].id, "RA");
    cr_expect_str_eq(ts->types[34].id, "IA");
    cr_expect_str_eq(ts->types[51].id, "TA");
    cr_expect_eq(ts->ntypes, 75);
}

static const struct cc_tile_type *type_of(const char *id)
{
    const struct cc_tileset *ts = cc_tileset_get(CC_RULESET_CLASSIC);
    int k = cc_tileset_find(ts, id);
    cr_assert_geq(k, 0, "%s exists", id);
    return &ts->types[k];
}

/* The feature of `t` at location `loc` at rotation 0. */
static const struct cc_feature_type *at(const struct cc_tile_type *t, int loc)
{
    unsigned f = t->slot_feature[0][loc];
    cr_assert_lt(f, t->nfeatures, "%s has a feature at %d", t->id, loc);
    return &t->features[f];
}

/* field:C: a field in the centre only, touching the cities it lists. */
Test(expansion_tiles, walled_in_field)
{
    const struct cc_tile_type *ic = type_of("IC");
    const struct cc_feature_type *f = at(ic, CC_LOC_C);
    cr_expect_eq(f->kind, CC_KIND_FIELD);
    cr_expect_eq(f->slots, CC_CENTRE_MASK);
    cr_expect_eq(__builtin_popcount(f->touches), 4);
    const struct cc_feature_type *tf = at(type_of("TF"), CC_LOC_C);
    cr_expect_eq(tf->kind, CC_KIND_FIELD);
    cr_expect_eq(__builtin_popcount(tf->touches), 3);
}

/* TX: two roads that cross on a bridge without meeting; IE: two roads ending apart; TW: a
 * road ending at nothing. */
Test(expansion_tiles, bridge_and_road_ends)
{
    const struct cc_tile_type *tx = type_of("TX");
    cr_expect_eq(tx->slot_feature[0][CC_LOC_N], tx->slot_feature[0][CC_LOC_S]);
    cr_expect_eq(tx->slot_feature[0][CC_LOC_W], tx->slot_feature[0][CC_LOC_E]);
    cr_expect_neq(tx->slot_feature[0][CC_LOC_N], tx->slot_feature[0][CC_LOC_E]);
    const struct cc_tile_type *ie = type_of("IE");
    cr_expect_neq(ie->slot_feature[0][CC_LOC_W], ie->slot_feature[0][CC_LOC_E]);
    cr_expect_eq(at(ie, CC_LOC_W)->end, CC_END_JUNCTION);
    const struct cc_tile_type *tw = type_of("TW");
    cr_expect_eq(at(tw, CC_LOC_W)->end, CC_END_DEAD);
    cr_expect_eq(at(tw, CC_LOC_S)->end, CC_END_CITY);
    cr_expect_str_eq(cc_end_name(CC_END_DEAD), "end");
}

/* Inns, cathedrals and goods sit where the catalogue puts them. */
Test(expansion_tiles, symbols_in_place)
{
    cr_expect_eq(at(type_of("IA"), CC_LOC_N)->cathedral, 1);
    cr_expect_eq(at(type_of("IK"), CC_LOC_S)->inn, 1);
    cr_expect_eq(at(type_of("IN"), CC_LOC_E)->inn, 1);
    cr_expect_eq(at(type_of("IN"), CC_LOC_S)->inn, 0);
    cr_expect_eq(at(type_of("IQ"), CC_LOC_N)->inn, 0);
    cr_expect_eq(at(type_of("TA"), CC_LOC_N)->goods[CC_GOODS_GRAIN], 1);
    cr_expect_eq(at(type_of("TC"), CC_LOC_E)->goods[CC_GOODS_CLOTH], 1);
    cr_expect_eq(at(type_of("TC"), CC_LOC_S)->goods[CC_GOODS_CLOTH], 0);
    /* TH: the four field segments touching the city stay apart. */
    const struct cc_tile_type *th = type_of("TH");
    cr_expect_eq(th->nfeatures, 7);
}

static enum cc_parse_status parse(const char *text)
{
    static struct cc_tileset ts;
    int line;
    return cc_tileset_parse(&ts, CC_RULESET_CLASSIC, text, strlen(text), &line);
}

Test(expansion_tiles, parser_refuses_misplaced_symbols)
{
    const char *start = "D 1 C R F R | city:N ; road:W,E ; field:En,Wn@N ; field:Es,Se,Sw,Ws ; "
                        "start\n";
    /* A catalogue of the start tile and one more: that tile's line and the answer. */
    static const struct {
        const char *line;
        enum cc_parse_status want;
    } cases[] = {
        {"Z 1 C F F F | city:N+inn ; field:En,Es,Se,Sw,Ws,Wn@N\n", CC_PARSE_UNKNOWN},
        {"Z 1 F R F R | road:W,E+wine ; field:Wn,Nw,Ne,En ; field:Es,Se,Sw,Ws\n", CC_PARSE_UNKNOWN},
        {"Z 1 F R F R | road:W,E>nowhere ; field:Wn,Nw,Ne,En ; field:Es,Se,Sw,Ws\n",
         CC_PARSE_UNKNOWN},
        /* a centre field on a tile with a monastery: the centre twice */
        {"Z 1 F F F F | field:Nw,Ne,En,Es,Se,Sw,Ws,Wn ; field:C ; mon\n", CC_PARSE_INCONSISTENT},
        {"Z 1 F R F R | road:W,E+inn ; field:Wn,Nw,Ne,En ; field:Es,Se,Sw,Ws\n", CC_PARSE_OK},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char buf[512];
        snprintf(buf, sizeof buf, "%s%s", start, cases[i].line);
        cr_expect_eq(parse(buf), cases[i].want, "%s", cases[i].line);
    }
}
