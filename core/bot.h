/* bot.h: computer players: the move a bot of a given level makes for the seat to move. */
#ifndef CC_BOT_H
#define CC_BOT_H

#include <stddef.h>
#include <stdint.h>

#include "game.h"

/*
 * Levels of play.
 *
 * The moves of the place phase, as the bots count them (cc_bot_moves()): every entry of
 * cc_legal_placements() (both hand tiles in the hand-of-two variant), each with each of its
 * follow-up choices: none; a follower on each distinct feature the placement allows one on
 * (named by its first location in the order of enum cc_location); a stable on each distinct
 * meadow feature allowed (hills, named the same way); each hike of the mask (hills: own
 * hiker k, side); the withdrawal of each own follower on the board (discovery, named by its
 * square and its own location). In the draw phase the only move is the draw.
 */
enum cc_bot_level {
    CC_BOT_RANDOM = 0, /* uniform among the moves above (every pair equally likely) */
    CC_BOT_GREEDY = 1, /* best projected own score minus the best other seat's after the move */
    CC_BOT_LEVEL_COUNT
};

/* The most follow-up choices of one placement: none, followers and stables per feature,
 * 16 hikes, a withdrawal per piece. */
#define CC_BOT_MAX_FOLLOWUPS (1 + 2 * CC_MAX_TILE_FEATURES + 16 + CC_MAX_PIECES)

/*
 * A bot's working memory, owned by the caller (about 100 KB: keep one per thread, not on a
 * small stack). Nothing in it outlives a call except what cc_bot_moves() documents.
 */
struct cc_bot_scratch {
    struct cc_game root;                         /* the position as the mover knows it */
    struct cc_game work;                         /* a candidate move applied to root */
    struct cc_placement list[CC_MAX_PLACEMENTS]; /* legal placements of root, follow-ups on */
    uint8_t nfollow[CC_MAX_PLACEMENTS];          /* follow-up choices of each list entry */
    size_t nlist;                                /* entries in list[] */
};

/*
 * The move a bot of `level` makes for the seat to move of `g`, into `out`: in the draw phase
 * the draw; in the place phase a placement (hand variant: naming the hand tile) with at most
 * one follow-up, always accepted by cc_game_apply(). A pure function of (g as the seat to
 * move sees it, level, seed): the same arguments give the same move; nothing hidden from that
 * seat is read (the rest of the pile and the other seats' hands are put in a canonical order
 * in scratch->root before anything else looks at the game). `g` is not changed.
 * Greedy applies every move to a copy of the game and keeps the one with the highest
 * projected final score (cc_projected_scores()) of the mover minus the highest of the other
 * seats; ties are broken uniformly by a generator seeded with `seed`; it never simulates a
 * draw. The service should derive `seed` from the game and the turn (not from the clock), so
 * that a turn thought again after a crash gives the same move. Fails with CC_ERR_GAME_FINISHED for
 * a finished game, CC_ERR_BAD_OPTION for an unknown level, CC_ERR_CORRUPT if the engine lists no
 * legal move or refuses a listed one (a bug).
 */
enum cc_status cc_bot_choose(const struct cc_game *g, enum cc_bot_level level, uint64_t seed,
                             struct cc_bot_scratch *scratch, struct cc_action *out) NODISCARD;

/*
 * The moves of the place phase of `g` as counted above: copies `g` into scratch->root (unseen
 * tiles in canonical order), lists its placements into scratch->list and returns the number
 * of moves (0 outside the place phase). cc_bot_move() then names each of them.
 */
size_t cc_bot_moves(const struct cc_game *g, struct cc_bot_scratch *scratch);

/* Move `i` (0 <= i < the count cc_bot_moves() returned) of scratch->root into `out`;
 * false when `i` is out of range. */
bool cc_bot_move(const struct cc_bot_scratch *scratch, size_t i, struct cc_action *out);

/* The level's stable name ("random", "greedy"), or NULL out of range. */
const char *cc_bot_level_name(enum cc_bot_level level);

/* The level named `name` into *out; false when there is none of that name. */
bool cc_bot_level_parse(const char *name, enum cc_bot_level *out) NODISCARD;

#endif
