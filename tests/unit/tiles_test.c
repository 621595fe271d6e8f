/* tiles_test.c: the catalogues as the rules count them, and the notation parser. */
#include <criterion/criterion.h>
#include <string.h>

#include "testutil.h"
#include "tiles.h"

static const struct cc_tileset *classic(void)
{
    const struct cc_tileset *ts = cc_tileset_get(CC_RULESET_CLASSIC);
    cr_assert_not_null(ts);
    return ts;
}

static unsigned count_kind(const struct cc_tile_type *t, enum cc_kind k)
{
    unsigned n = 0;
    for (int i = 0; i < t->nfeatures; i++) n += t->features[i].kind == k;
    return n;
}

Test(tiles, classic_land_counts)
{
    const struct cc_tileset *ts = classic();
    unsigned types = 0, tiles = 0, monasteries = 0, pennants = 0;
    for (int i = 0; i < ts->ntypes; i++) {
        const struct cc_tile_type *t = &ts->types[i];
        if (t->set != CC_SET_BASE) continue;
        types++;
        tiles += t->count;
        monasteries += t->count * count_kind(t, CC_KIND_MONASTERY);
        for (int f = 0; f < t->nfeatures; f++) pennants += t->count * t->features[f].pennants;
    }
    cr_expect_eq(types, 24);
    cr_expect_eq(tiles, 72);
    cr_expect_eq(ts->land_count, 72);
    cr_expect_eq(monasteries, 6);
    cr_expect_eq(pennants, 10);
    cr_expect_str_eq(ts->types[ts->start_type].id, "D");
}

Test(tiles, classic_river_counts)
{
    const struct cc_tileset *ts = classic();
    unsigned types = 0, tiles = 0, springs = 0;
    for (int i = 0; i < ts->ntypes; i++) {
        const struct cc_tile_type *t = &ts->types[i];
        if (!t->is_river) continue;
        types++;
        tiles += t->count;
        springs += t->is_start;
        cr_expect_eq(count_kind(t, CC_KIND_RIVER), 1, "%s has one river", t->id);
    }
    cr_expect_eq(types, 10);
    cr_expect_eq(tiles, 12);
    cr_expect_eq(springs, 1);
}

/* Per type facts from the catalogue, spot-checked against the rules texts (docs/rules/). */
Test(tiles, classic_type_facts)
{
    const struct cc_tileset *ts = classic();
    struct {
        const char *id;
        unsigned count, cities, roads, fields, pennants;
    } want[] = {
        {"A", 2, 0, 1, 1, 0}, {"B", 4, 0, 0, 1, 0}, {"C", 1, 1, 0, 0, 1}, {"D", 4, 1, 1, 2, 0},
        {"E", 5, 1, 0, 1, 0}, {"F", 2, 1, 0, 2, 1}, {"G", 1, 1, 0, 2, 0}, {"H", 3, 2, 0, 1, 0},
        {"I", 2, 2, 0, 1, 0}, {"J", 3, 1, 1, 2, 0}, {"K", 3, 1, 1, 2, 0}, {"L", 3, 1, 3, 3, 0},
        {"M", 2, 1, 0, 1, 1}, {"N", 3, 1, 0, 1, 0}, {"O", 2, 1, 1, 2, 1}, {"P", 3, 1, 1, 2, 0},
        {"Q", 1, 1, 0, 1, 1}, {"R", 3, 1, 0, 1, 0}, {"S", 2, 1, 1, 2, 1}, {"T", 1, 1, 1, 2, 0},
        {"U", 8, 0, 1, 2, 0}, {"V", 9, 0, 1, 2, 0}, {"W", 4, 0, 3, 3, 0}, {"X", 1, 0, 4, 4, 0},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        int k = cc_tileset_find(ts, want[i].id);
        cr_assert_geq(k, 0, "%s exists", want[i].id);
        const struct cc_tile_type *t = &ts->types[k];
        unsigned pennants = 0;
        for (int f = 0; f < t->nfeatures; f++) pennants += t->features[f].pennants;
        cr_expect_eq(t->count, want[i].count, "%s count", t->id);
        cr_expect_eq(count_kind(t, CC_KIND_CITY), want[i].cities, "%s cities", t->id);
        cr_expect_eq(count_kind(t, CC_KIND_ROAD), want[i].roads, "%s roads", t->id);
        cr_expect_eq(count_kind(t, CC_KIND_FIELD), want[i].fields, "%s fields", t->id);
        cr_expect_eq(pennants, want[i].pennants, "%s pennants", t->id);
    }
}

/* H and I: two separate cities, and one field touching both. */
Test(tiles, separate_cities_share_a_field)
{
    const struct cc_tileset *ts = classic();
    const char *ids[] = {"H", "I"};
    for (int i = 0; i < 2; i++) {
        const struct cc_tile_type *t = &ts->types[cc_tileset_find(ts, ids[i])];
        unsigned field = 0;
        while (t->features[field].kind != CC_KIND_FIELD) field++;
        cr_expect_eq(__builtin_popcount(t->features[field].touches), 2, "%s", ids[i]);
    }
}

/* Every location of every type belongs to one feature in every rotation, and rotating
 * moves the feature with the location. */
Test(tiles, rotations_are_consistent)
{
    for (int r = 0; r < CC_RULESET_COUNT; r++) {
        const struct cc_tileset *ts = cc_tileset_get((enum cc_ruleset)r);
        if (!ts) continue;
        for (int i = 0; i < ts->ntypes; i++) {
            const struct cc_tile_type *t = &ts->types[i];
            for (int rot = 0; rot < 4; rot++) {
                for (int loc = 0; loc < 12; loc++) {
                    unsigned f = t->slot_feature[rot][loc];
                    cr_assert_lt(f, t->nfeatures, "%s rot %d loc %d", t->id, rot, loc);
                    cr_expect_eq(f, t->slot_feature[0][(loc - 3 * rot + 12) % 12]);
                }
                for (int s = 0; s < 4; s++)
                    cr_expect_eq((t->edge_code[rot] >> (4 * s)) & 0xF, t->edges[(s - rot + 4) % 4]);
            }
        }
    }
}

static enum cc_parse_status parse(const char *text)
{
    static struct cc_tileset ts;
    int line;
    return cc_tileset_parse(&ts, CC_RULESET_CLASSIC, text, strlen(text), &line);
}

Test(tiles, parser_accepts_a_minimal_catalogue)
{
    cr_expect_eq(parse("D 1 C R F R | city:N ; road:W,E ; field:En,Wn@N ; field:Es,Se,Sw,Ws ; "
                       "start\n"),
                 CC_PARSE_OK);
}

Test(tiles, parser_rejects_bad_catalogues)
{
    /* no start tile */
    cr_expect_neq(parse("E 5 C F F F | city:N ; field:En,Es,Se,Sw,Ws,Wn@N\n"), CC_PARSE_OK);
    /* a half-side left out */
    cr_expect_eq(parse("E 5 C F F F | city:N ; field:En,Es,Se,Sw,Ws@N ; start\n"),
                 CC_PARSE_INCONSISTENT);
    /* a city over a field side */
    cr_expect_eq(parse("E 5 C F F F | city:N,E ; field:Es,Se,Sw,Ws,Wn@N ; start\n"),
                 CC_PARSE_INCONSISTENT);
    /* unknown edge letter and unknown feature */
    cr_expect_eq(parse("E 5 Z F F F | city:N ; field:En,Es,Se,Sw,Ws,Wn ; start\n"),
                 CC_PARSE_UNKNOWN);
    cr_expect_eq(parse("E 5 C F F F | castle:N ; field:En,Es,Se,Sw,Ws,Wn ; start\n"),
                 CC_PARSE_UNKNOWN);
    /* a half-side twice */
    cr_expect_eq(parse("E 5 C F F F | city:N ; field:En,En,Es,Se,Sw,Ws,Wn ; start\n"),
                 CC_PARSE_INCONSISTENT);
    /* a road side without a road */
    cr_expect_eq(parse("U 8 F R F R | field:Wn,Nw,Ne,En ; field:Es,Se,Sw,Ws ; start\n"),
                 CC_PARSE_INCONSISTENT);
    /* missing separator, bad count, duplicate id */
    cr_expect_eq(parse("E 5 C F F F city:N\n"), CC_PARSE_SYNTAX);
    cr_expect_eq(parse("E x C F F F | city:N ; field:En,Es,Se,Sw,Ws,Wn ; start\n"),
                 CC_PARSE_SYNTAX);
    cr_expect_eq(parse("E 5 C F F F | city:N ; field:En,Es,Se,Sw,Ws,Wn ; start\n"
                       "E 5 C F F F | city:N ; field:En,Es,Se,Sw,Ws,Wn\n"),
                 CC_PARSE_INCONSISTENT);
    /* a touch through a side that is not a city */
    cr_expect_eq(parse("E 5 C F F F | city:N ; field:En,Es,Se,Sw,Ws,Wn@S ; start\n"),
                 CC_PARSE_INCONSISTENT);
}

Test(tiles, names_round_trip)
{
    for (int loc = 0; loc < CC_LOC_COUNT; loc++)
        cr_expect_eq(cc_location_parse(cc_location_name((enum cc_location)loc)), loc);
    cr_expect_eq(cc_location_parse("X"), -1);
    cr_expect_eq(cc_ruleset_parse("classic"), CC_RULESET_CLASSIC);
    cr_expect_eq(cc_ruleset_parse("chess"), -1);
}
