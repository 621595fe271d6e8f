/* modules.h: expansions and variants inside a ruleset as modules with hooks (engine-internal).
 *
 * The modules: the River (river.c), Inns & Cathedrals (inns.c), Traders & Builders
 * (traders.c). A module may bring figures (enum cc_piece_kind in game_types.h, one each per
 * player: `figures`), scoreboard columns and a sixth seat.
 *
 * A module is switched on by a bit of an option (core/options.c) and brings a set of tiles
 * (its catalogue core/tilesets/NAME.tiles, whose types get set NAME). The shared machinery
 * (game.c, placement.c, board.c, the scorings, bot.c) calls the hooks of the modules a game
 * has on, and never names one: the River is river.c. Every hook may be NULL.
 *
 * Adding an expansion NAME of a ruleset:
 *   - core/tilesets/NAME.tiles: its tiles (tools/tilegen orders the sets, so the type
 *     indices stored in snapshots never move);
 *   - core/tiles.h, core/tilenames.c: CC_SET_NAME at the end of enum cc_set, its name and
 *     ruleset (and CC_MAX_TILE_TYPES if the ruleset outgrows it);
 *   - core/options.h, core/options.c, a byte of struct cc_options (game_types.h): its option row
 *     (or a bit of a set option) and the combinations it refuses;
 *   - here and core/modules.c: its enum cc_module_id value and its row; core/NAME.c: it;
 *   - its state, if any: fields of struct cc_game, snapshot.c (a new CC_SNAPSHOT_VERSION:
 *     options and state are written field by field) and check.c;
 *   - core/status.h, core/status.c: its refusals (and the API's list of codes);
 *   - tests/unit/NAME_test.c and its golden cases;
 *   - api/game/rulesets.c: the API's words for its option; openapi.yaml.
 */
#ifndef CC_MODULES_H
#define CC_MODULES_H

#include <stdbool.h>

#include "board.h"
#include "game_types.h"
#include "options.h"

struct cc_rng;

/* The modules, in the order their hooks run. */
enum cc_module_id {
    CC_MODULE_RIVER = 0, /* classic: the River (river.c) */
    CC_MODULE_INNS,      /* classic: Inns & Cathedrals (inns.c) */
    CC_MODULE_TRADERS,   /* classic: Traders & Builders (traders.c) */
    CC_MODULE_COUNT
};

struct cc_module {
    const char *name;     /* "river" */
    uint8_t set;          /* enum cc_set of its tiles (CC_SET_BASE: it brings none) */
    uint8_t option;       /* enum cc_option_id that switches it on ... */
    uint8_t on_mask;      /* ... when the option's value has one of these bits */
    uint8_t tile_refused; /* enum cc_status for a start or deck tile of its set while off */
    uint8_t figures;      /* bit mask of the enum cc_piece_kind it adds: one each per player */
    uint8_t max_players;  /* players a game with it may have (0: CC_BASE_MAX_PLAYERS) */
    uint16_t columns;     /* bit mask of the enum cc_column it adds to the scoreboard */
    /* Set-up. The start tile when none is given and the module is on: a type index of
     * `ts`, or -1 for the ruleset's own. */
    int (*start_type)(const struct cc_tileset *ts);
    /* Set-up: its own pile, dealt before the land in front[] (shuffled with `rng` before
     * the land is), and what it takes out of land[]. NULL: its tiles are shuffled into
     * the land. `start` is the game's start tile type. */
    void (*deck)(const struct cc_tileset *ts, uint8_t start, struct cc_rng *rng, uint8_t *front,
                 unsigned *nfront, uint8_t *land, unsigned *nland);
    /* Set-up, for every game whether the module is on or not: its state in `g` once the
     * start tile of type `start` lies at (0, 0) (off: the state at rest). */
    void (*init)(struct cc_game *g, const struct cc_tile_type *start);
    /* Placement of a tile of its set on an empty square next to the board: `edges` is the
     * verdict of the side check (CC_OK or CC_ERR_EDGES_DO_NOT_MATCH); returns the first
     * rule broken, in the module's order of checks, or CC_OK. */
    enum cc_status (*check_position)(const struct cc_game *g, const struct cc_tile_type *t, int x,
                                     int y, unsigned rot, enum cc_status edges);
    /* After board tile `tile` was placed (before deployment and scoring), joining features
     * that held `joined` (holders[] bits, cc_board_place()). */
    void (*placed)(struct cc_game *g, unsigned tile, const struct cc_tile_type *t, unsigned joined);
    /* The holders[] bits for which `placed` is called: only after a placement that joined a
     * feature with one of them (data, not a test in the hook: the engine places a tile in
     * every turn, and for most the call would be for nothing); 0: after every placement. */
    uint16_t placed_when;
    /* Deployment of a follower on a feature of `kind`: CC_OK or the refusal. */
    enum cc_status (*check_deploy)(const struct cc_game *g, unsigned kind);
    /* Deployment of one of its own figures that are not followers (a builder, a pig):
     * `a` names it (a->figure), its placement is legal and the location holds a feature;
     * CC_OK or the refusal, `g` unchanged. */
    enum cc_status (*check_figure)(const struct cc_game *g, const struct cc_action *a);
    /* A road or city `root`, whose segments carry `sum`, completed during play was just
     * scored (its pieces still on it). */
    void (*completed)(struct cc_game *g, uint16_t root, enum cc_kind kind,
                      const struct cc_feature_sum *sum, struct cc_events *ev);
    /* After a placement was scored: whether the seat to move takes another turn (and its
     * event, if ev). Called only while g->extra_turn or g->builder_due is set: an extra turn
     * hangs on that state of the game, which the module's placed hook sets. */
    bool (*turn_again)(struct cc_game *g, struct cc_events *ev);
    /* Standard farms: the seats among `winners` of farm `field` that score one point more
     * per city (a pig). */
    unsigned (*farm_boost)(const struct cc_game *g, uint16_t field, unsigned winners);
    /* Its own follow-up kinds: a bit mask of enum cc_followup values past
     * CC_FOLLOW_WITHDRAW (a figure of its own deployed, a builder ...), and how they go,
     * as struct cc_rules has them for a ruleset's: check_followup validates `a` (its
     * placement known legal) without changing `g`; apply_followup carries it out on board
     * tile `tile`, once before the scoring of the placement and once after. */
    uint32_t followups;
    enum cc_status (*check_followup)(const struct cc_game *g, const struct cc_action *a);
    void (*apply_followup)(struct cc_game *g, unsigned tile, const struct cc_action *a,
                           bool after_scoring, struct cc_events *ev);
    /* Adds the module's own follow-ups to the masks of a legal placement. */
    void (*placement_followups)(const struct cc_game *g, struct cc_placement *p);
    /* The same for figures that go only onto features holding a follower of their owner
     * (placement.c finds those with its occupancy check): `own` has bit f set when feature
     * f of the placed tile would hold one of the seat to move's followers, `j` what the
     * placement joins (its side tiles, the roots beyond its slots, its features' groups).
     * Called only with `own` nonzero and when the seat to move has one of own_figures left
     * in its supply. */
    void (*own_features)(const struct cc_game *g, struct cc_placement *p, uint16_t own,
                         const struct cc_joins *j);
    /* Its figures that go only onto features holding a follower of their owner (bits of
     * enum cc_piece_kind): data, not a hook, since the follow-up pass asks on nearly every
     * placement whether the seat to move has one left. */
    uint8_t own_figures;
    /* A road's or city's value: `points` as the base rules count the feature of `kind` whose
     * segments carry `sum` (completed during play, or at the end when `final`), and what the
     * module makes of it. */
    int (*feature_value)(const struct cc_game *g, const struct cc_feature_sum *sum,
                         enum cc_kind kind, bool final, int points);
    /* A figure's weight in majorities. A plain follower weighs 1 in every game: it is
     * never asked (cc_pieces_on()). */
    unsigned (*figure_weight)(const struct cc_game *g, const struct cc_piece *pc);
    /* What a player knows of where a tile of its set comes in the pile: tiles of one class
     * are in an unknown order, classes in a known one (computer players, bot.c). NULL: the
     * land's class (its tiles are shuffled into the land). */
    unsigned (*pile_class)(const struct cc_tile_type *t);
    /* End-of-game scoring added after the ruleset's own, into players[]; events if ev. */
    void (*final_scoring)(const struct cc_game *g, struct cc_player *players, struct cc_events *ev);
};

/* Module `id`, or NULL out of range. */
const struct cc_module *cc_module_get(enum cc_module_id id);

/* The table of the modules (modules.c), constant; indexed by enum cc_module_id. */
extern const struct cc_module *const cc_modules[CC_MODULE_COUNT];

/* The module of each tile set (modules.c; NULL for the base set): one look-up, as the
 * placement checks ask it for every tile (each module's `set` says the same:
 * tests/unit/modules_test.c). */
extern const struct cc_module *const cc_set_modules[CC_SET_COUNT];

/* The module that brings tile set `set`, or NULL (the base set, or out of range). */
static inline const struct cc_module *cc_module_of_set(unsigned set)
{
    return set < CC_SET_COUNT ? cc_set_modules[set] : NULL;
}

/* The hooks called on every placement (or deployment): struct cc_game's hooked_on[] has,
 * for each, the modules on that have it (cc_modules_switch_on()). */
enum cc_hot_hook {
    CC_HOT_PLACED = 0,
    CC_HOT_PLACEMENT_FOLLOWUPS,
    CC_HOT_TURN_AGAIN,
    CC_HOT_CHECK_DEPLOY,
};
_Static_assert(CC_HOT_CHECK_DEPLOY + 1 == CC_HOT_HOOK_COUNT, "game_types.h counts the hot hooks");

/* Sets g->modules_on, g->hooked_on[] and g->own_figures from g->options (game creation,
 * decoding). */
void cc_modules_switch_on(struct cc_game *g);

/* Whether g->modules_on, g->hooked_on[] and g->own_figures are what g->options make them
 * (check.c). */
bool cc_modules_switched_on(const struct cc_game *g);

/* Loops over the modules on in `g` that have hot hook `which` (enum cc_hot_hook), as `m`, in
 * module order. */
#define CC_EACH_HOOKED(g, which)                                                                   \
    for (unsigned b_ = (g)->hooked_on[which]; b_; b_ &= b_ - 1)                                    \
        for (const struct cc_module *m = cc_modules[__builtin_ctz(b_)]; m; m = NULL)

/* Loops over the modules on in `g` that have hook `hook`, as `m`, in module order (the bits
 * of g->modules_on: a game without any costs one test). */
#define CC_EACH_ON(g, hook)                                                                        \
    for (unsigned b_ = (g)->modules_on; b_; b_ &= b_ - 1)                                          \
        for (const struct cc_module *m = cc_modules[__builtin_ctz(b_)]; m; m = NULL)               \
            if (m->hook)

/* Whether module `m` is on in a game with options `o`. */
static inline bool cc_module_on(const struct cc_module *m, const struct cc_options *o)
{
    return (cc_option_get(o, (enum cc_option_id)m->option) & m->on_mask) != 0;
}

/* The status for a tile of type `t` in a game with options `o`: CC_OK when its set is the
 * base or a module that is on, else that module's tile_refused. */
enum cc_status cc_module_tile_allowed(const struct cc_tile_type *t, const struct cc_options *o);

/* Bit `set` for each tile set whose module has a placement rule of its own (check_position:
 * the River), modules.c; tests/unit/modules_test.c checks it against the modules. */
extern const uint32_t cc_position_rule_sets;

/* Whether tiles of `t`'s set have a placement rule of their own (the slow path). A bit of a
 * constant and no test of the set: tiles of the base and of the expansions come mixed in
 * the pile, and a test per set was a branch the processor mostly guessed wrong. */
static inline bool cc_tile_has_position_rule(const struct cc_tile_type *t)
{
    return (cc_position_rule_sets >> (t->set & 31u)) & 1u;
}

/* Takes one tile of `type` out of pile[0..*len) if there is one (game.c; for the modules
 * that set up piles of their own). */
void cc_pile_remove(uint8_t *pile, unsigned *len, uint8_t type);

/* The bits of the modules on in a game with options `o` (struct cc_game's modules_on). */
unsigned cc_modules_on_mask(const struct cc_options *o);

/* The hooks of the modules that are on in `g`, in module order. Those called on every
 * placement are inline (a call each saved on the engine's hottest path). */
static inline void cc_modules_placed(struct cc_game *g, unsigned tile, unsigned joined)
{
    if (!((joined | CC_PLACED_ALWAYS) & g->placed_when)) return;
    CC_EACH_HOOKED(g, CC_HOT_PLACED)
    {
        if (!m->placed_when || (joined & m->placed_when))
            m->placed(g, tile, cc_placed_type(g, tile), joined);
    }
}
static inline void cc_modules_placement_followups(const struct cc_game *g, struct cc_placement *p)
{
    CC_EACH_HOOKED(g, CC_HOT_PLACEMENT_FOLLOWUPS) m->placement_followups(g, p);
}
/* Figures of `kind` in the supply of player `p` (inline: the follow-up pass asks it). */
static inline unsigned cc_supply_count(const struct cc_player *p, enum cc_piece_kind kind)
{
    switch (kind) {
    case CC_PIECE_STABLE:
        return p->stables;
    case CC_PIECE_LARGE:
        return p->large;
    case CC_PIECE_BUILDER:
        return p->builders;
    case CC_PIECE_PIG:
        return p->pigs;
    default:
        return p->followers;
    }
}

/* The figure kinds player `p` has at least one of in its supply (bits of enum
 * cc_piece_kind), without a branch. */
static inline unsigned cc_supply_kinds(const struct cc_player *p)
{
    return (unsigned)(p->followers != 0) << CC_PIECE_FOLLOWER |
           (unsigned)(p->stables != 0) << CC_PIECE_STABLE |
           (unsigned)(p->large != 0) << CC_PIECE_LARGE |
           (unsigned)(p->builders != 0) << CC_PIECE_BUILDER |
           (unsigned)(p->pigs != 0) << CC_PIECE_PIG;
}

/* Whether the seat to move has a figure left that goes only where it has a follower (a
 * builder, a pig): the modules' own_features are worth calling. */
static inline bool cc_modules_want_own(const struct cc_game *g)
{
    return (cc_supply_kinds(&g->players[g->seat]) & g->own_figures) != 0;
}
static inline bool cc_modules_turn_again(struct cc_game *g, struct cc_events *ev)
{
    /* Nearly every placement: no extra turn is due or running, and one test says so. */
    if (!(g->extra_turn | g->builder_due)) return false;
    bool again = false;
    CC_EACH_HOOKED(g, CC_HOT_TURN_AGAIN) again |= m->turn_again(g, ev);
    return again;
}
enum cc_status cc_modules_check_deploy(const struct cc_game *g, unsigned kind);
/* Inline: the follow-up pass calls it on most placements while a builder or pig is left. */
static inline void cc_modules_own_features(const struct cc_game *g, struct cc_placement *p,
                                           uint16_t own, const struct cc_joins *j)
{
    CC_EACH_ON(g, own_features) m->own_features(g, p, own, j);
}
int cc_modules_feature_value(const struct cc_game *g, const struct cc_feature_sum *sum,
                             enum cc_kind kind, bool final, int points);
void cc_modules_final_scoring(const struct cc_game *g, struct cc_player *players,
                              struct cc_events *ev);
void cc_modules_completed(struct cc_game *g, uint16_t root, enum cc_kind kind,
                          const struct cc_feature_sum *sum, struct cc_events *ev);
unsigned cc_modules_farm_boost(const struct cc_game *g, uint16_t field, unsigned winners);

/* The module on in `g` that brings figures of `kind`, or NULL. */
const struct cc_module *cc_module_of_figure(const struct cc_game *g, unsigned kind);

/* Figures of `kind` each player has at the start of a game with options `o` of ruleset
 * `rules_followers` followers and `rules_stables` stables. */
unsigned cc_figures_at_start(const struct cc_options *o, unsigned kind, unsigned rules_followers,
                             unsigned rules_stables);

/* The supply counter of figures of `kind` of player `p` (never NULL for a valid kind). */
uint8_t *cc_supply_of(struct cc_player *p, enum cc_piece_kind kind);

/* The module on in `g` whose follow-up kind `follow` is, or NULL. */
const struct cc_module *cc_module_of_followup(const struct cc_game *g, unsigned follow);

/* Whether some module on in `g` weighs figures (cc_figure_weight() then matters). */
bool cc_modules_weigh(const struct cc_game *g);

/* The weight of piece `pc` in majorities: 1, or what the modules on in `g` say. */
unsigned cc_figure_weight(const struct cc_game *g, const struct cc_piece *pc);

/* The River (river.c), Inns & Cathedrals (inns.c), Traders & Builders (traders.c). */
extern const struct cc_module cc_river_module;
extern const struct cc_module cc_inns_module;
extern const struct cc_module cc_traders_module;

/* Of the engine's public interface (game.h includes this header): */

/* The most players a game with options `o` may have: CC_BASE_MAX_PLAYERS, or
 * CC_MAX_PLAYERS with an expansion of classic. */
unsigned cc_max_players(const struct cc_options *o);

/* Whether figures of `kind` may be deployed in `g`: followers always, others when an
 * expansion the game has on brings them (core/modules.h). */
bool cc_figure_in_game(const struct cc_game *g, unsigned kind);

#endif
