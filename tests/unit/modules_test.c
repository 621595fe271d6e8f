/* modules_test.c: tile sets in the catalogues, the options table, and the modules that
 * expansions are (the River). */
#include <criterion/criterion.h>
#include <string.h>

#include "modules.h"
#include "options.h"
#include "testutil.h"

Test(modules, every_tile_knows_its_set)
{
    const struct cc_tileset *ts = cc_tileset_get(CC_RULESET_CLASSIC);
    cr_assert_not_null(ts);
    unsigned river = 0, base = 0;
    for (unsigned i = 0; i < ts->ntypes; i++) {
        const struct cc_tile_type *t = &ts->types[i];
        /* The River's types are R*, and exactly they have river sides. */
        cr_expect_eq(t->set == CC_SET_RIVER, t->id[0] == 'R' && t->id[1] != '\0', "%s", t->id);
        cr_expect_eq(t->set == CC_SET_RIVER, t->is_river != 0, "%s", t->id);
        if (t->set == CC_SET_RIVER) river += t->count;
        if (t->set == CC_SET_BASE) base += t->count;
    }
    cr_expect_eq(river, 12);
    cr_expect_eq(base, ts->land_count);
    for (int r = CC_RULESET_HILLS; r < CC_RULESET_COUNT; r++) {
        const struct cc_tileset *o = cc_tileset_get((enum cc_ruleset)r);
        for (unsigned i = 0; o && i < o->ntypes; i++) cr_expect_eq(o->types[i].set, CC_SET_BASE);
    }
}

Test(modules, set_lines_in_a_catalogue)
{
    static struct cc_tileset ts;
    const char text[] = "B 4 F F F F | field:Nw,Ne,En,Es,Se,Sw,Ws,Wn ; mon ; start\n"
                        "@set river\n"
                        "RD 2 F I F I | field:Wn,Nw,Ne,En ; field:Ws,Sw,Se,Es\n";
    int line = 0;
    cr_assert_eq(cc_tileset_parse(&ts, CC_RULESET_CLASSIC, text, strlen(text), &line), CC_PARSE_OK);
    cr_expect_eq(ts.types[0].set, CC_SET_BASE);
    cr_expect_eq(ts.types[1].set, CC_SET_RIVER);
    cr_expect_eq(ts.land_count, 4);
    const char bad[] = "@set lakes\n";
    cr_expect_eq(cc_tileset_parse(&ts, CC_RULESET_CLASSIC, bad, strlen(bad), &line),
                 CC_PARSE_UNKNOWN);
    cr_expect_eq(line, 1);
    cr_expect_str_eq(cc_set_name(CC_SET_RIVER), "river");
    cr_expect_eq(cc_set_parse("base"), CC_SET_BASE);
    cr_expect_eq(cc_set_parse("lake"), -1);
    cr_expect_eq(cc_set_ruleset(CC_SET_RIVER), CC_RULESET_CLASSIC);
    cr_expect_eq(cc_set_ruleset(CC_SET_BASE), -1);
}

Test(modules, options_table)
{
    struct cc_options o;
    memset(&o, 0xAA, sizeof o);
    cc_options_default(&o);
    int bad, other;
    for (int r = 0; r < CC_RULESET_COUNT; r++)
        cr_expect_eq(cc_options_check((enum cc_ruleset)r, &o, &bad, &other), CC_OK);
    /* Each option: its own ruleset takes every value, another refuses any but the default. */
    for (int id = 0; id < CC_OPT_COUNT; id++) {
        const struct cc_option_def *d = cc_option_def((enum cc_option_id)id);
        cr_assert_not_null(d);
        for (int r = 0; r < CC_RULESET_COUNT; r++) {
            cc_options_default(&o);
            /* The final rule of inns and cathedrals goes only with inns (refused below). */
            if (id == CC_OPT_INN_FINAL && r == CC_RULESET_CLASSIC) o.expansions = CC_EXP_INNS;
            cc_option_set(&o, (enum cc_option_id)id, cc_option_limit(d) - 1u);
            enum cc_status st = cc_options_check((enum cc_ruleset)r, &o, &bad, &other);
            if (cc_option_in_ruleset((enum cc_option_id)id, (enum cc_ruleset)r)) {
                cr_expect_eq(st, CC_OK, "%s in %d", d->name, r);
            } else {
                cr_expect_eq(st, CC_ERR_BAD_OPTION, "%s in %d", d->name, r);
                cr_expect_eq(bad, id);
            }
            cc_option_set(&o, (enum cc_option_id)id, cc_option_limit(d));
            cr_expect_eq(cc_options_check((enum cc_ruleset)r, &o, &bad, &other), CC_ERR_BAD_OPTION);
            cr_expect_not(cc_options_in_range(&o));
        }
    }
    cr_expect_str_eq(cc_option_def(CC_OPT_RIVER)->name, "river");
    cr_expect(cc_option_is_bool(cc_option_def(CC_OPT_RIVER)));
    cr_expect_str_eq(cc_option_def(CC_OPT_EDITION)->values[1], "original");
    cr_expect_null(cc_option_def(CC_OPT_COUNT));
    for (unsigned i = 0; cc_option_refusal_at(i); i++) {
        const struct cc_option_refusal *f = cc_option_refusal_at(i);
        cc_options_default(&o);
        cc_option_set(&o, (enum cc_option_id)f->a, f->va);
        cc_option_set(&o, (enum cc_option_id)f->b, f->vb);
        cr_expect_eq(cc_options_check(CC_RULESET_CLASSIC, &o, &bad, &other), f->status);
    }
}

Test(modules, each_set_has_its_module)
{
    for (unsigned set = 0; set < CC_SET_COUNT; set++) {
        const struct cc_module *m = cc_module_of_set(set);
        if (set == CC_SET_BASE) {
            cr_expect_null(m);
            continue;
        }
        cr_assert_not_null(m, "set %u", set);
        cr_expect_eq(m->set, set);
    }
    for (unsigned i = 0; i < CC_MODULE_COUNT; i++) {
        const struct cc_module *m = cc_module_get((enum cc_module_id)i);
        if (m->set != CC_SET_BASE) cr_expect_eq(cc_module_of_set(m->set), m, "%s", m->name);
    }
    cr_expect_null(cc_module_of_set(CC_SET_COUNT));
    /* The sets with a placement rule of their own are those whose module has one. */
    for (unsigned set = 0; set < CC_SET_COUNT; set++) {
        const struct cc_module *m = cc_module_of_set(set);
        cr_expect_eq((cc_position_rule_sets >> set) & 1u, m && m->check_position ? 1u : 0u,
                     "set %u", set);
    }
}

Test(modules, the_river_is_a_module)
{
    const struct cc_module *m = cc_module_of_set(CC_SET_RIVER);
    cr_assert_not_null(m);
    cr_expect_eq(m, cc_module_get(CC_MODULE_RIVER));
    cr_expect_str_eq(m->name, "river");
    cr_expect_eq(m->option, CC_OPT_RIVER);
    cr_expect_null(cc_module_of_set(CC_SET_BASE));
    const struct cc_tileset *ts = cc_tileset_get(CC_RULESET_CLASSIC);
    struct cc_options off = {0}, on = {.river = 1};
    const struct cc_tile_type *rd = &ts->types[cc_tileset_find(ts, "RD")];
    const struct cc_tile_type *d = &ts->types[cc_tileset_find(ts, "D")];
    cr_expect_eq(cc_module_tile_allowed(rd, &off), CC_ERR_RIVER_TILE_WITHOUT_RIVER);
    cr_expect_eq(cc_module_tile_allowed(rd, &on), CC_OK);
    cr_expect_eq(cc_module_tile_allowed(d, &off), CC_OK);
    cr_expect(cc_tile_has_position_rule(rd));
    cr_expect_not(cc_tile_has_position_rule(d));
    /* With the River on, the game starts from the spring; off, the river state rests. */
    struct cc_setup s = {.ruleset = CC_RULESET_CLASSIC,
                         .nplayers = 2,
                         .start = -1,
                         .deck_len = -1,
                         .options = on,
                         .seed = 7};
    static struct cc_game g;
    cr_assert_eq(cc_game_new(&g, &s, NULL), CC_OK);
    cr_expect_str_eq(ts->types[g.board[0].type].id, "RA");
    cr_expect_eq(g.river_open_side, 1); /* the spring's river leaves east */
    s.options = off;
    cr_assert_eq(cc_game_new(&g, &s, NULL), CC_OK);
    cr_expect_eq(g.river_open_side, 0xFF);
    cr_expect_eq(cc_modules_weigh(&g), false);
}
