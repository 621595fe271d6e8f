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
 * meadow feature allowed (hills, named the same way); with the expansions of classic, the
 * large follower, the builder and the pig on each distinct feature each may go on (named the
 * same way, in that order, the action's `figure` saying which); each hike of the mask (hills: own
 * hiker k, side); the withdrawal of each own follower on the board (discovery, named by its
 * square and its own location). In the draw phase the only move is the draw.
 */
enum cc_bot_level {
    CC_BOT_RANDOM = 0, /* uniform among the moves above (every pair equally likely) */
    CC_BOT_GREEDY = 1, /* best projected own score minus the best other seat's after the move
                          (with the builder: plus 4 for an extra turn earned, 1 while it is out) */
    CC_BOT_MCTS = 2,   /* determinized Monte Carlo search over greedy's best moves (cc_bot_think) */
    CC_BOT_HARD = 3,   /* determinized search of placements then follow-ups with greedy replies, a
                          heuristic leaf value and an exact search of the last tiles (bot_hard.c) */
    CC_BOT_LEVEL_COUNT
};

/* The most follow-up choices of one placement: none, followers, stables, large followers,
 * builders and pigs per feature, 16 hikes, a withdrawal per piece. */
#define CC_BOT_MAX_FOLLOWUPS (1 + 5 * CC_MAX_TILE_FEATURES + 16 + CC_MAX_PIECES)

/* Root moves the mcts level keeps (the best by greedy's margin when there are more). */
#define CC_BOT_MCTS_CHILDREN 1024

/* Iterations of mcts when neither bound is given (and in cc_bot_choose()). */
#define CC_BOT_MCTS_DEFAULT_ITERATIONS 1000

/* Iterations of hard when neither bound is given (and in cc_bot_choose()). */
#define CC_BOT_HARD_DEFAULT_ITERATIONS 200

/* Follow-ups hard keeps of one placement (the best by its leaf value), and so the placements
 * it keeps: children[] holds CC_BOT_HARD_GROUPS groups of CC_BOT_HARD_FOLLOWUPS slots. */
#define CC_BOT_HARD_FOLLOWUPS 8
#define CC_BOT_HARD_GROUPS    (CC_BOT_MCTS_CHILDREN / CC_BOT_HARD_FOLLOWUPS)

/* Plies of hard's replies and exact search below the root (a game in the scratch each). */
#define CC_BOT_HARD_DEPTH 4

/* One placement of the hard search (the first level of its two-level action): its
 * follow-ups are children[slot * CC_BOT_HARD_FOLLOWUPS ...][0, count), best first. */
struct cc_bot_group {
    uint16_t slot;   /* which slots of children[] */
    uint8_t count;   /* follow-ups kept */
    uint8_t pad;     /* zero */
    double prior;    /* the leaf value of its best follow-up */
    uint32_t visits; /* simulations through it */
    double reward;   /* sum of their rewards, each in [0, 1] */
};

/* One root move of the mcts search (or of hard's) and what the search learnt of it. */
struct cc_bot_child {
    struct cc_action action; /* the move */
    int32_t prior;           /* greedy's margin after it (hard: its leaf margin, truncated) */
    uint32_t key;            /* seeded tie-break among equal priors */
    uint32_t visits;         /* simulations through it */
    double reward;           /* sum of their rewards, each in [0, 1] */
};

/*
 * A bot's working memory, owned by the caller (about 360 KB, sizeof says exactly: calloc
 * one per thread, never on a small stack). Nothing in it outlives a call except what
 * cc_bot_moves() documents. The mcts level's whole tree is children[] (a fixed arena of
 * CC_BOT_MCTS_CHILDREN root moves) and one simulated game (sim): it never allocates. Hard
 * uses the same arena in groups (groups[]), sim, and deep[] for its replies and its exact
 * search of the last tiles (one game a ply: CC_BOT_HARD_DEPTH plies at most).
 */
struct cc_bot_scratch {
    struct cc_game root;                          /* the position as the mover knows it */
    struct cc_game work;                          /* a candidate move applied to root */
    struct cc_game sim;                           /* mcts: one determinized simulation */
    struct cc_placement list[CC_MAX_PLACEMENTS];  /* legal placements of root, follow-ups on */
    uint8_t nfollow[CC_MAX_PLACEMENTS];           /* follow-up choices of each list entry */
    size_t nlist;                                 /* entries in list[] */
    struct cc_placement plist[CC_MAX_PLACEMENTS]; /* mcts: placements during a playout */
    struct cc_bot_child children[CC_BOT_MCTS_CHILDREN]; /* mcts: the root moves searched */
    uint32_t nchildren;                                 /* entries in children[] */
    uint32_t iterations;                                /* mcts: simulations of the last call */
    struct cc_bot_group groups[CC_BOT_HARD_GROUPS];     /* hard: the placements searched */
    uint32_t ngroups;                                   /* entries in groups[], best first */
    uint32_t exact_nodes;                   /* hard: positions its exact search tried, or 0 */
    struct cc_game deep[CC_BOT_HARD_DEPTH]; /* hard: replies and the exact search, a ply each */
};

/* What bounds the thinking of mcts and hard (the other levels ignore it). */
struct cc_bot_budget {
    uint32_t iterations;           /* simulations at most; 0: no bound but time */
    uint32_t think_us;             /* microseconds at most; 0: no time bound */
    uint64_t (*now_us)(void *ctx); /* monotonic microseconds; core never reads a clock */
    void *now_ctx;                 /* passed to now_us */
};

/*
 * The move a bot of `level` makes for the seat to move of `g`, into `out`: in the draw phase
 * the draw; in the place phase a placement (hand variant: naming the hand tile) with at most
 * one follow-up, always accepted by cc_game_apply(). A pure function of (g as the seat to
 * move sees it, level, seed): the same arguments give the same move; nothing hidden from that
 * seat is read (the rest of the pile and the other seats' hands are put in a canonical order
 * in scratch->root before anything else looks at the game). `g` is not changed. Mcts
 * thinks for CC_BOT_MCTS_DEFAULT_ITERATIONS iterations (cc_bot_think() takes a budget).
 * Greedy applies every move to a copy of the game and keeps the one with the highest
 * projected final score (cc_projected_scores()) of the mover minus the highest of the other
 * seats (in a game with the builder, plus 4 when the move earns an extra turn and 1 when the
 * mover's builder is on the board after it: points do not show what turns are worth); ties are
 * broken uniformly by a generator seeded with `seed`; it never simulates a draw. The service should
 * derive `seed` from the game and the turn (not from the clock), so that a turn thought again after
 * a crash gives the same move. Fails with CC_ERR_GAME_FINISHED for a finished game,
 * CC_ERR_BAD_OPTION for an unknown level, CC_ERR_CORRUPT if the engine lists no legal move or
 * refuses a listed one (a bug).
 */
enum cc_status cc_bot_choose(const struct cc_game *g, enum cc_bot_level level, uint64_t seed,
                             struct cc_bot_scratch *scratch, struct cc_action *out) NODISCARD;

/*
 * The move of `level` for the seat to move of `g`, as cc_bot_choose(), thinking within
 * `budget` (NULL: CC_BOT_MCTS_DEFAULT_ITERATIONS). Random and greedy ignore the budget.
 * Mcts: lists every move, ranks them by greedy's margin (ties by the seed) and keeps the
 * best CC_BOT_MCTS_CHILDREN; then each iteration picks a root move by UCB1 among the best
 * few (progressive widening: more of them as the iterations grow), deals the tiles the
 * mover cannot see anew from the seeded generator (the rest of the pile within what is
 * known of its order, the other hands), plays the move and a short playout, and scores
 * the result by the projected final margin. The move with the most visits is played.
 * The iterations stop at budget->iterations or when budget->now_us says think_us have
 * passed (the clock is read every few iterations); with neither bound,
 * CC_BOT_MCTS_DEFAULT_ITERATIONS. With an iteration bound only, a pure function of (g as
 * the mover sees it, level, seed, iterations); with a time bound it is as repeatable as the
 * clock. scratch->iterations tells how many were run. Errors as cc_bot_choose().
 * Hard (core/bot_hard.c has it in full): the same budget (CC_BOT_HARD_DEFAULT_ITERATIONS
 * without a bound), a search of placements then follow-ups over new deals with every seat
 * replying by its best move, valued by the leaf value of core/bot_eval.c; with at most one
 * tile left after the mover's and no hidden hand, an exact search instead
 * (scratch->exact_nodes tells how many positions it tried; 0 when it did not run).
 */
enum cc_status cc_bot_think(const struct cc_game *g, enum cc_bot_level level, uint64_t seed,
                            const struct cc_bot_budget *budget, struct cc_bot_scratch *scratch,
                            struct cc_action *out) NODISCARD;

/*
 * The moves of the place phase of `g` as counted above: copies `g` into scratch->root (unseen
 * tiles in canonical order), lists its placements into scratch->list and returns the number
 * of moves (0 outside the place phase). cc_bot_move() then names each of them.
 */
size_t cc_bot_moves(const struct cc_game *g, struct cc_bot_scratch *scratch);

/* Move `i` (0 <= i < the count cc_bot_moves() returned) of scratch->root into `out`;
 * false when `i` is out of range. */
bool cc_bot_move(const struct cc_bot_scratch *scratch, size_t i, struct cc_action *out);

/* The level's stable name ("random", "greedy", "mcts", "hard"), or NULL out of range. */
const char *cc_bot_level_name(enum cc_bot_level level);

/* The level named `name` into *out; false when there is none of that name. */
bool cc_bot_level_parse(const char *name, enum cc_bot_level *out) NODISCARD;

#endif
