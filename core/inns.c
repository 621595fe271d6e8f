/* inns.c: Inns & Cathedrals, a module of classic (shared/rules/expansions.md).
 *
 * Its 18 tiles (set inns) are shuffled into the land. A road with an inn scores 2 per tile
 * when completed during play, a city with a cathedral 3 per tile and per pennant; either one
 * not completed scores nothing at the end (inn_cathedral_final zero) or as a plain feature
 * (ignore). Each player has one large follower: deployed under the follower's rules (game.c,
 * placement.c: cc_piece_is_follower()), it weighs 2 in every majority and scores nothing of
 * its own. No state of its own.
 */

#include "board.h"
#include "modules.h"

/* A completed inn road: 2 per tile; a completed cathedral city: 3 per tile and per pennant (a
 * cathedral city has 5 tiles or more: the original edition's two-tile rule never applies).
 * Not completed at the end: 0, or the plain value with inn_cathedral_final ignore. */
static int inns_feature_value(const struct cc_game *g, const struct cc_feature_sum *sum,
                              enum cc_kind kind, bool final, int points)
{
    /* An inn on a road, a cathedral in a city (symbols of the other kind never occur). */
    bool symbol = kind == CC_KIND_ROAD ? sum->inn : kind == CC_KIND_CITY && sum->cathedral;
    if (!symbol) return points;
    if (final) return g->options.inn_final == CC_INN_FINAL_IGNORE ? points : 0;
    int tiles = (int)sum->tiles;
    if (kind == CC_KIND_ROAD) return 2 * tiles;
    return 3 * (tiles + (int)sum->pennants);
}

/* The large follower counts 2 in every majority, farms of both editions included. */
static unsigned inns_figure_weight(const struct cc_game *g, const struct cc_piece *pc)
{
    (void)g;
    return pc->kind == CC_PIECE_LARGE ? 2u : 1u;
}

const struct cc_module cc_inns_module = {
    .name = "inns",
    .set = CC_SET_INNS,
    .option = CC_OPT_EXPANSIONS,
    .on_mask = CC_EXP_INNS,
    .tile_refused = CC_ERR_TILE_NOT_IN_GAME,
    .figures = 1u << CC_PIECE_LARGE,
    .max_players = CC_MAX_PLAYERS,
    .feature_value = inns_feature_value,
    .figure_weight = inns_figure_weight,
};
