/* status.c: names and sentences for the engine's result codes. */
#include "status.h"

struct status_info {
    const char *name; /* stable snake_case code */
    const char *text; /* a sentence for people */
};

static const struct status_info infos[CC_STATUS_COUNT] = {
    [CC_OK] = {"ok", "Done."},
    [CC_ERR_BAD_PLAYER_COUNT] = {"bad_player_count",
                                 "A game needs 2 to 5 players (6 with an expansion of classic)."},
    [CC_ERR_BAD_OPTION] = {"bad_option", "An option has a value this ruleset does not offer."},
    [CC_ERR_UNKNOWN_TILE] = {"unknown_tile", "A tile id is not in this ruleset's catalogue."},
    [CC_ERR_DECK_TOO_LONG] = {"deck_too_long", "A deck holds at most 200 tiles."},
    [CC_ERR_BAD_RULESET] = {"unknown_ruleset", "There is no such ruleset."},
    [CC_ERR_GAME_FINISHED] = {"game_finished", "The game is over."},
    [CC_ERR_WRONG_PHASE] = {"wrong_phase",
                            "That action does not belong to this phase of the turn."},
    [CC_ERR_NOT_YOUR_TURN] = {"not_your_turn", "It is another player's turn."},
    [CC_ERR_BAD_ROTATION] = {"bad_rotation", "Rotation must be 0, 90, 180 or 270."},
    [CC_ERR_POSITION_TAKEN] = {"position_taken", "A tile already lies on that square."},
    [CC_ERR_NOT_ADJACENT] = {"not_adjacent", "A tile must share a side with a placed tile."},
    [CC_ERR_EDGES_DO_NOT_MATCH] = {"edges_do_not_match",
                                   "A side of the tile does not match the tile it touches."},
    [CC_ERR_RIVER_NOT_CONTINUED] = {"river_not_continued",
                                    "A river tile must continue the river from its open end."},
    [CC_ERR_RIVER_U_TURN] = {"river_u_turn",
                             "The river may not turn the same way on two tiles in a row."},
    [CC_ERR_BAD_LOCATION] = {"bad_location", "That is not a location on a tile."},
    [CC_ERR_NO_FEATURE_THERE] = {"no_feature_there", "The tile has no feature at that location."},
    [CC_ERR_FEATURE_OCCUPIED] = {"feature_occupied",
                                 "That feature already holds a follower, joined across tiles."},
    [CC_ERR_NO_FOLLOWERS_LEFT] = {"no_followers_left", "The player has no follower left."},
    [CC_ERR_RIVER_NOT_ALLOWED] = {"river_not_allowed", "No piece may stand on the river."},
    [CC_ERR_NOT_ALLOWED_HERE] = {"not_allowed_here",
                                 "That piece cannot stand on this kind of feature."},
    [CC_ERR_FOLLOWUP_NOT_IN_RULESET] = {"followup_not_in_ruleset",
                                        "This ruleset has no such follow-up."},
    [CC_ERR_STABLE_TOO_CLOSE] = {"stable_too_close",
                                 "A stable stands on this tile or on one of the 8 around it."},
    [CC_ERR_NO_STABLES_LEFT] = {"no_stables_left", "The player has built both stables."},
    [CC_ERR_NO_HIKE_POSSIBLE] = {"no_hike_possible", "That hike is not allowed now."},
    [CC_ERR_NOT_YOUR_FOLLOWER] = {"not_your_follower", "That follower belongs to another player."},
    [CC_ERR_NO_FOLLOWER_THERE] = {"no_follower_there", "No follower stands there."},
    [CC_ERR_TILE_NOT_IN_HAND] = {"tile_not_in_hand", "The player does not hold that tile."},
    [CC_ERR_TILE_REQUIRED] = {"tile_required", "Name the hand tile to place."},
    [CC_ERR_CORRUPT] = {"corrupt_state", "The stored game is inconsistent."},
    [CC_ERR_RIVER_TILE_WITHOUT_RIVER] = {"river_tile_without_river",
                                         "River tiles belong only to games with the River."},
    [CC_ERR_ALREADY_RESIGNED] = {"already_resigned", "This seat has resigned already."},
    [CC_ERR_INCOMPATIBLE_OPTIONS] = {"incompatible_options",
                                     "These options cannot be combined in one game."},
    [CC_ERR_TILE_NOT_IN_GAME] = {"tile_not_in_game",
                                 "That tile belongs to an expansion this game is played without."},
    [CC_ERR_FIGURE_NOT_IN_GAME] = {"figure_not_in_game",
                                   "That figure belongs to an expansion this game is played "
                                   "without."},
    [CC_ERR_NO_FIGURE_LEFT] = {"no_figure_left", "That figure is not in the player's supply."},
    [CC_ERR_NO_OWN_FOLLOWER] = {"no_own_follower",
                                "A builder or a pig goes only where the player has a follower."},
    [CC_ERR_FEATURE_COMPLETED] = {"feature_completed",
                                  "A builder cannot go on a road or city this tile completes."},
};

const char *cc_status_name(enum cc_status s)
{
    return (unsigned)s < CC_STATUS_COUNT ? infos[s].name : "unknown";
}

const char *cc_status_text(enum cc_status s)
{
    return (unsigned)s < CC_STATUS_COUNT ? infos[s].text : "Unknown status.";
}
