/* modules.c: the table of modules, and the calls of the hooks of those a game has on. */
#include <string.h>

#include "board.h"
#include "modules.h"

const struct cc_module *const cc_modules[CC_MODULE_COUNT] = {
    [CC_MODULE_RIVER] = &cc_river_module,
    [CC_MODULE_INNS] = &cc_inns_module,
    [CC_MODULE_TRADERS] = &cc_traders_module,
};
#define modules cc_modules

const struct cc_module *const cc_set_modules[CC_SET_COUNT] = {
    [CC_SET_RIVER] = &cc_river_module,
    [CC_SET_INNS] = &cc_inns_module,
    [CC_SET_TRADERS] = &cc_traders_module,
};

const uint32_t cc_position_rule_sets = 1u << CC_SET_RIVER;

const struct cc_module *cc_module_get(enum cc_module_id id)
{
    return (unsigned)id < CC_MODULE_COUNT ? modules[id] : NULL;
}

enum cc_status cc_module_tile_allowed(const struct cc_tile_type *t, const struct cc_options *o)
{
    const struct cc_module *m = cc_module_of_set(t->set);
    if (!m || cc_module_on(m, o)) return CC_OK;
    return (enum cc_status)m->tile_refused;
}

_Static_assert(CC_MODULE_COUNT <= 8, "modules_on has a bit per module");

unsigned cc_modules_on_mask(const struct cc_options *o)
{
    unsigned bits = 0;
    for (unsigned i = 0; i < CC_MODULE_COUNT; i++)
        if (cc_module_on(modules[i], o)) bits |= 1u << i;
    return bits;
}

#define EACH_ON CC_EACH_ON

/* Whether module `m` has hot hook `which`. */
static bool has_hot(const struct cc_module *m, enum cc_hot_hook which)
{
    switch (which) {
    case CC_HOT_PLACED:
        return m->placed != NULL;
    case CC_HOT_PLACEMENT_FOLLOWUPS:
        return m->placement_followups != NULL;
    case CC_HOT_TURN_AGAIN:
        return m->turn_again != NULL;
    case CC_HOT_CHECK_DEPLOY:
        return m->check_deploy != NULL;
    }
    return false;
}

/* The hooked_on[] of the modules on in mask `on`, into out[]. */
static void hooked(unsigned on, uint8_t out[CC_HOT_HOOK_COUNT])
{
    for (unsigned h = 0; h < CC_HOT_HOOK_COUNT; h++) {
        out[h] = 0;
        for (unsigned i = 0; i < CC_MODULE_COUNT; i++)
            if ((on >> i & 1u) && has_hot(modules[i], (enum cc_hot_hook)h))
                out[h] |= (uint8_t)(1u << i);
    }
}

/* The own_figures of the modules on in mask `on`. */
static uint8_t own_figures(unsigned on)
{
    unsigned kinds = 0;
    for (unsigned i = 0; i < CC_MODULE_COUNT; i++)
        if (on >> i & 1u) kinds |= modules[i]->own_figures;
    return (uint8_t)kinds;
}

/* The placed_when of the games with the modules on in mask `on` (struct cc_game). */
static uint16_t placed_when(unsigned on)
{
    unsigned when = 0;
    for (unsigned i = 0; i < CC_MODULE_COUNT; i++)
        if ((on >> i & 1u) && modules[i]->placed)
            when |= modules[i]->placed_when ? modules[i]->placed_when : CC_PLACED_ALWAYS;
    return (uint16_t)when;
}

void cc_modules_switch_on(struct cc_game *g)
{
    g->modules_on = (uint8_t)cc_modules_on_mask(&g->options);
    hooked(g->modules_on, g->hooked_on);
    g->own_figures = own_figures(g->modules_on);
    g->placed_when = placed_when(g->modules_on);
}

bool cc_modules_switched_on(const struct cc_game *g)
{
    uint8_t want[CC_HOT_HOOK_COUNT];
    unsigned on = cc_modules_on_mask(&g->options);
    hooked(on, want);
    return g->modules_on == on && memcmp(want, g->hooked_on, sizeof want) == 0 &&
           g->own_figures == own_figures(on) && g->placed_when == placed_when(on);
}

enum cc_status cc_modules_check_deploy(const struct cc_game *g, unsigned kind)
{
    CC_EACH_HOOKED(g, CC_HOT_CHECK_DEPLOY)
    {
        enum cc_status st = m->check_deploy(g, kind);
        if (st != CC_OK) return st;
    }
    return CC_OK;
}

int cc_modules_feature_value(const struct cc_game *g, const struct cc_feature_sum *sum,
                             enum cc_kind kind, bool final, int points)
{
    EACH_ON(g, feature_value) points = m->feature_value(g, sum, kind, final, points);
    return points;
}

void cc_modules_final_scoring(const struct cc_game *g, struct cc_player *players,
                              struct cc_events *ev)
{
    EACH_ON(g, final_scoring) m->final_scoring(g, players, ev);
}

const struct cc_module *cc_module_of_followup(const struct cc_game *g, unsigned follow)
{
    if (follow >= 32) return NULL;
    EACH_ON(g, check_followup)
    {
        if (m->followups >> follow & 1u) return m;
    }
    return NULL;
}

bool cc_modules_weigh(const struct cc_game *g)
{
    EACH_ON(g, figure_weight) return true;
    return false;
}

unsigned cc_figure_weight(const struct cc_game *g, const struct cc_piece *pc)
{
    unsigned w = 1;
    EACH_ON(g, figure_weight) w = m->figure_weight(g, pc);
    return w;
}

void cc_modules_completed(struct cc_game *g, uint16_t root, enum cc_kind kind,
                          const struct cc_feature_sum *sum, struct cc_events *ev)
{
    EACH_ON(g, completed) m->completed(g, root, kind, sum, ev);
}

unsigned cc_modules_farm_boost(const struct cc_game *g, uint16_t field, unsigned winners)
{
    unsigned seats = 0;
    EACH_ON(g, farm_boost) seats |= m->farm_boost(g, field, winners);
    return seats;
}

const struct cc_module *cc_module_of_figure(const struct cc_game *g, unsigned kind)
{
    if (kind >= 8) return NULL;
    for (unsigned b = g->modules_on; b; b &= b - 1) {
        const struct cc_module *m = modules[__builtin_ctz(b)];
        if (m->figures >> kind & 1u) return m;
    }
    return NULL;
}

bool cc_figure_in_game(const struct cc_game *g, unsigned kind)
{
    return kind == CC_PIECE_FOLLOWER || cc_module_of_figure(g, kind) != NULL;
}

unsigned cc_figures_at_start(const struct cc_options *o, unsigned kind, unsigned rules_followers,
                             unsigned rules_stables)
{
    if (kind == CC_PIECE_FOLLOWER) return rules_followers;
    if (kind == CC_PIECE_STABLE) return rules_stables;
    unsigned n = 0;
    for (unsigned i = 0; i < CC_MODULE_COUNT; i++)
        if ((modules[i]->figures >> kind & 1u) && cc_module_on(modules[i], o)) n = 1;
    return n;
}

uint8_t *cc_supply_of(struct cc_player *p, enum cc_piece_kind kind)
{
    switch (kind) {
    case CC_PIECE_STABLE:
        return &p->stables;
    case CC_PIECE_LARGE:
        return &p->large;
    case CC_PIECE_BUILDER:
        return &p->builders;
    case CC_PIECE_PIG:
        return &p->pigs;
    default:
        return &p->followers;
    }
}

unsigned cc_max_players(const struct cc_options *o)
{
    unsigned n = CC_BASE_MAX_PLAYERS;
    for (unsigned i = 0; i < CC_MODULE_COUNT; i++)
        if (modules[i]->max_players > n && cc_module_on(modules[i], o)) n = modules[i]->max_players;
    return n;
}
