/* game_types.h: a game as a plain fixed-size value -- its types and constants only, no
 * function but a few inline reads of a value. Every header of the engine builds on it;
 * game.h, the engine's public interface, adds the functions. Kept apart so that the
 * engine's lower modules (board, options, modules, rules, hand, placement) need not include
 * game.h, whose functions are built on them (no include cycle: scripts/check-c.js rule 6). */
#ifndef CC_GAME_TYPES_H
#define CC_GAME_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nodiscard.h"
#include "status.h"
#include "tiles.h"

#define CC_MIN_PLAYERS      2
#define CC_MAX_PLAYERS      6                 /* with an expansion of classic (cc_max_players()) */
#define CC_BASE_MAX_PLAYERS 5                 /* without one */
#define CC_MAX_DECK         200               /* tiles in a draw pile, custom decks included */
#define CC_MAX_BOARD        (CC_MAX_DECK + 1) /* the start tile and every drawn tile */
#define CC_MAX_NODES        (CC_MAX_BOARD * CC_MAX_TILE_FEATURES) /* feature segments on a board */
#define CC_MAX_PIECES       64 /* pieces on the board at once: 6 players of 10 figures */
_Static_assert(CC_MAX_PIECES <= 64, "struct cc_game's pieces_used has a bit a piece");
#define CC_CELL_TABLE     1024 /* hash slots for placed tiles and their frontier */
#define CC_MAX_FRONTIER   (2 * CC_MAX_BOARD + 2)    /* empty squares next to placed tiles */
#define CC_MAX_PLACEMENTS (CC_MAX_FRONTIER * 4 * 2) /* 4 rotations, 2 hand tiles */
#define CC_HAND_SIZE      2
#define CC_HOT_HOOK_COUNT 4 /* enum cc_hot_hook (core/modules.h) */
#define CC_NO_TILE        0xFF
#define CC_NO_SEAT        0xFF

/* Columns of the scoreboard; which ones a ruleset uses is cc_ruleset_columns(). */
enum cc_column {
    CC_COL_ROAD = 0,
    CC_COL_CITY,
    CC_COL_MONASTERY,
    CC_COL_FARM,
    CC_COL_TRAIL,
    CC_COL_FARMLAND,
    CC_COL_HIKE,
    CC_COL_STABLE,
    CC_COL_HARVEST,
    CC_COL_GRASSLAND,
    CC_COL_MOUNTAIN,
    CC_COL_SEA,
    CC_COL_GOODS, /* classic with Traders & Builders: the goods majorities */
    CC_COL_COUNT
};

enum cc_edition { CC_EDITION_STANDARD = 0, CC_EDITION_ORIGINAL = 1 };
enum cc_draw_mode { CC_DRAW_PILE = 0, CC_DRAW_HAND = 1 };

/* The expansions of classic (option expansions: a set, bit by bit). */
enum cc_expansion { CC_EXP_INNS = 1, CC_EXP_TRADERS = 2 };

/* What an inn road or a cathedral city not completed scores at the end. */
enum cc_inn_final { CC_INN_FINAL_ZERO = 0, CC_INN_FINAL_IGNORE = 1 };

/* Options of a game; each ruleset reads only its own. The table of them (names, values,
 * defaults, rulesets, refused combinations) is core/options.h: a new one is a byte here
 * and a row there. */
struct cc_options {
    uint8_t edition;    /* classic: enum cc_edition */
    uint8_t river;      /* classic: 1 to play with the River */
    uint8_t draw;       /* discovery: enum cc_draw_mode */
    uint8_t expansions; /* classic: bits of enum cc_expansion */
    uint8_t inn_final;  /* classic with inns: enum cc_inn_final */
};

/* Everything that fixes a game at creation. */
struct cc_setup {
    uint8_t ruleset;           /* enum cc_ruleset */
    uint8_t nplayers;          /* 2..5, 2..6 with an expansion (cc_max_players()) */
    struct cc_options options; /* per ruleset */
    uint64_t seed;             /* the shuffle is a pure function of it */
    int16_t start;             /* tile type index of the start tile, or -1 for the default */
    int16_t deck_len;          /* -1: the shuffled standard deck; else tiles in deck[] */
    uint8_t deck[CC_MAX_DECK]; /* tile type indices, first drawn first */
};

enum cc_phase { CC_PHASE_DRAW = 0, CC_PHASE_PLACE = 1, CC_PHASE_FINISHED = 2 };

/* The figures. Values are stored in snapshots: never renumber. */
enum cc_piece_kind {
    CC_PIECE_FOLLOWER = 0,
    CC_PIECE_STABLE = 1,  /* hills */
    CC_PIECE_LARGE = 2,   /* classic with inns: the large follower, 2 in every majority */
    CC_PIECE_BUILDER = 3, /* classic with traders: gives its owner an extra turn */
    CC_PIECE_PIG = 4,     /* classic with traders: 4 per city in its owner's farm */
    CC_PIECE_KIND_COUNT
};

/* Whether figures of `kind` hold features like followers: they count in majorities, make a
 * feature occupied, score, and come back when their feature is completed. */
static inline bool cc_piece_is_follower(unsigned kind)
{
    return kind == CC_PIECE_FOLLOWER || kind == CC_PIECE_LARGE;
}

/* A piece on the board. */
struct cc_piece {
    uint8_t used;    /* 0: free slot */
    uint8_t seat;    /* owner */
    uint8_t kind;    /* enum cc_piece_kind */
    uint8_t tile;    /* index into board[] */
    uint8_t loc;     /* enum cc_location, in board directions */
    uint8_t feature; /* feature index on that tile */
};

/* A placed tile. */
struct cc_placed {
    int16_t x, y;       /* board square */
    uint8_t type;       /* tile type index */
    uint8_t rot;        /* quarter turns clockwise */
    uint8_t neighbours; /* placed tiles among the 8 around it */
    uint8_t pad;        /* zero */
};

/* One player. */
struct cc_player {
    int16_t score;                  /* total */
    int16_t columns[CC_COL_COUNT];  /* breakdown, sums to score */
    uint8_t followers;              /* in supply */
    uint8_t stables;                /* hills: in supply */
    uint8_t harvest[CC_CROP_COUNT]; /* hills: tokens held */
    uint8_t hand[CC_HAND_SIZE];     /* discovery hand variant: tile types or CC_NO_TILE */
    uint8_t large;                  /* inns: large followers in supply */
    uint8_t builders;               /* traders: builders in supply */
    uint8_t pigs;                   /* traders: pigs in supply */
    uint8_t goods[CC_GOODS_COUNT];  /* traders: goods tokens held */
};

/*
 * A whole game. A plain value: copy it with memcpy, compare with cc_game_encode().
 * Every field is owned by the engine; read it, never write it.
 */
struct cc_game {
    uint8_t ruleset;           /* enum cc_ruleset */
    uint8_t nplayers;          /* 2..6 */
    struct cc_options options; /* as created */
    uint8_t phase;             /* enum cc_phase */
    uint8_t seat;              /* seat to move */
    uint8_t drawn;             /* tile type drawn this turn (phase place), else CC_NO_TILE */
    uint8_t river_open_side;   /* River (river.c): side of river_tile open, 0xFF none */
    uint8_t river_last_turn;   /* 0 none/straight, 1 right, 2 left: last river tile's turn */
    uint8_t river_tile;        /* board index of the tile holding the river's open end */
    uint8_t resigned;          /* bit mask of the seats that resigned (core/resign.c) */
    uint8_t extra_turn;        /* traders (traders.c): 1 while the turn is a builder's extra turn */
    uint8_t builder_due;       /* traders: within a placement, 1 + the placed tile's feature that
                                  extended the builder's road or city; 0 otherwise */
    uint8_t modules_on; /* bit per module on (core/modules.h), from the options: not stored */
    /* Per hook called on every placement (enum cc_hot_hook, core/modules.h): the bits of
     * modules_on whose module has it, so that the others cost nothing; not stored. */
    uint8_t hooked_on[CC_HOT_HOOK_COUNT];
    /* The figure kinds of the modules on that go only where their owner has a follower
     * (struct cc_module's own_figures, core/modules.h); not stored. */
    uint8_t own_figures;
    /* The holders[] bits of a placement's joined features after which some module on wants
     * its placed hook called (struct cc_module's placed_when), and CC_PLACED_ALWAYS when one
     * wants it after every placement: one test skips the hooks on most placements; not
     * stored. */
    uint16_t placed_when;
    uint16_t turn;                  /* turns started, from 1 */
    uint64_t seed;                  /* as created */
    int16_t start;                  /* start tile type as created, -1 default */
    int16_t custom_deck;            /* 1 when the deck was given at creation */
    uint16_t deck_len;              /* tiles in deck[] */
    uint16_t deck_pos;              /* next tile to draw */
    uint8_t deck[CC_MAX_DECK];      /* the draw pile in draw order */
    uint16_t nremoved;              /* hand variant: tiles removed face up at the start */
    uint8_t removed[CC_MAX_DECK];   /* their types */
    uint16_t ndiscarded;            /* tiles set aside */
    uint8_t discarded[CC_MAX_DECK]; /* their types, in order */
    struct cc_player players[CC_MAX_PLAYERS];
    uint8_t harvest_supply[CC_CROP_COUNT]; /* hills: tokens left */
    uint16_t nboard;                       /* tiles placed */
    struct cc_placed board[CC_MAX_BOARD];
    struct cc_piece pieces[CC_MAX_PIECES];
    /* Bit i set while pieces[i].used: the lowest free entry and the end of the used ones
     * (cc_pieces_end()) in one instruction each (derived, not stored; checked). */
    uint64_t pieces_used;
    /* Feature graph: node = tile index * CC_MAX_TILE_FEATURES + feature index. */
    uint16_t root[CC_MAX_NODES]; /* the representative of the node's feature */
    uint16_t next[CC_MAX_NODES]; /* circular list of the members of a feature */
    uint16_t size[CC_MAX_NODES]; /* at roots: members */
    int16_t open[CC_MAX_NODES];  /* at roots: edge slots with no tile beyond them */
    /* At roots: bit s for a follower (or the large follower) of seat s on the feature, bit
     * 8 + s for its builder (CC_HOLDER_BUILDER). Derived from pieces[] and the graph, not
     * stored: it answers "who holds this feature" with one load where the engine would
     * otherwise pass over every piece (placements' follow-ups, majorities, the builder). */
    uint16_t holders[CC_MAX_NODES];
    /* Squares: hash of (x, y) -> placed tile or frontier square. */
    uint32_t cell_key[CC_CELL_TABLE]; /* the square's number + 1; 0 = empty slot */
    uint16_t cell_val[CC_CELL_TABLE]; /* tile index, or CC_CELL_FRONTIER | frontier index */
    uint16_t nfrontier;
    int16_t frontier[CC_MAX_FRONTIER][2]; /* empty squares next to a placed tile */
    /* Per frontier square, the edges its placed neighbours demand: 4 bits per side
     * (N lowest) set in mask where a neighbour is, its facing edge kind in want. */
    uint16_t frontier_mask[CC_MAX_FRONTIER];
    uint16_t frontier_want[CC_MAX_FRONTIER];
    /* Per frontier square, the board index of the tile on each side (N, E, S, W), or
     * CC_NO_SIDE_TILE: what a placement there joins, without looking the sides up. */
    uint8_t frontier_nb[CC_MAX_FRONTIER][4];
    /* Per frontier square, the distinct nodes beyond its edge slots (frontier_nnodes of
     * them, in the order the side tiles came): who holds what a placement there would join
     * is a look-up for each (placement.c), about three, with no test per side or slot. */
    uint16_t frontier_node[CC_MAX_FRONTIER][12];
    uint8_t frontier_nnodes[CC_MAX_FRONTIER];
    /* Per frontier square, which of those entries are a road or a city (bit i for entry
     * i; the others are fields, or a river): the builder goes on the one kind, the pig on
     * the other, so a seat with only one of them left looks beyond at that kind alone.
     * Derivable from frontier_want and each entry's slots, but kept: the follow-up pass
     * would work it out on most placements, this is set once per entry (and checked). */
    uint16_t frontier_rc[CC_MAX_FRONTIER];
    /* The tiles the last placement surrounded (8 neighbours at last): the tile itself if
     * it was, then those around it clockwise from NW (board indices). The placement's
     * scoring finds the monasteries it completed among them alone, nearly always none. */
    uint8_t last_surrounded[9];
    uint8_t nlast_surrounded;
};

#define CC_CELL_FRONTIER 0x8000u

/* struct cc_game's holders[]: the followers' seat bits, and the builders' shifted by this. */
#define CC_HOLDER_BUILDER   8
#define CC_HOLDER_FOLLOWERS 0xFFu
/* struct cc_game's placed_when: a module's placed hook is due after every placement (above
 * the holders[] bits of the builders of CC_MAX_PLAYERS seats). */
#define CC_PLACED_ALWAYS 0x8000u
_Static_assert(CC_HOLDER_BUILDER + CC_MAX_PLAYERS <= 15,
               "the holders' bits stay below CC_PLACED_ALWAYS");

/* Follow-up of a turn, after the placement: at most one. */
enum cc_followup {
    CC_FOLLOW_NONE = 0,
    CC_FOLLOW_FOLLOWER, /* deploy on the placed tile at `loc` */
    CC_FOLLOW_STABLE,   /* hills: build a stable on the placed tile at `loc` */
    CC_FOLLOW_HIKE,     /* hills: the own hiker on (fx, fy) walks out through side `loc` */
    CC_FOLLOW_WITHDRAW  /* discovery: take back the own follower on (fx, fy) at `loc` */
    /* Values after these belong to the modules of expansions (core/modules.h: followups). */
};

enum cc_action_kind {
    CC_ACTION_DRAW = 0,
    CC_ACTION_PLACE = 1,
    CC_ACTION_RESIGN = 2 /* the acting seat resigns, whoever's turn it is: cc_game_resign() */
};

/* An action of a player. */
struct cc_action {
    uint8_t kind;   /* enum cc_action_kind */
    uint8_t seat;   /* who acts */
    int16_t x, y;   /* place: the square */
    uint8_t rot;    /* place: quarter turns clockwise, 0..3 */
    uint8_t tile;   /* place, hand variant: the hand tile's type; else CC_NO_TILE */
    uint8_t follow; /* enum cc_followup */
    uint8_t loc;    /* follower/stable: location; hike: side 0..3; withdraw: location */
    int16_t fx, fy; /* hike/withdraw: the square of the piece */
    uint8_t figure; /* follower: enum cc_piece_kind deployed (0, a follower, by default) */
};

enum cc_event_type {
    CC_EV_TILE_DRAWN = 0,
    CC_EV_TILE_DISCARDED,
    CC_EV_TILE_PLACED,
    CC_EV_FOLLOWER_DEPLOYED,
    CC_EV_STABLE_BUILT,
    CC_EV_HIKER_MOVED,
    CC_EV_FOLLOWER_WITHDRAWN, /* discovery: scored and back to supply; see score_discovery.c */
    CC_EV_FEATURE_SCORED,
    CC_EV_FINAL_SCORED,
    CC_EV_GAME_FINISHED,
    CC_EV_FOLLOWER_RETURNED, /* follows the CC_EV_FEATURE_SCORED it belongs to */
    CC_EV_TILES_REMOVED,     /* discovery hand variant: one tile removed face up */
    CC_EV_HAND_DEALT,        /* discovery hand variant: a tile goes to a hand */
    CC_EV_SEAT_RESIGNED,     /* a seat is out (core/resign.c); tile: a drawn tile put back */
    CC_EV_PIECE_REMOVED,     /* a resigned seat's piece leaves the board; kind: cc_piece_kind */
    CC_EV_GOODS_TAKEN,       /* traders: the placing seat takes a completed city's goods */
    CC_EV_EXTRA_TURN,        /* traders: the seat's builder gives it the next turn too */
    CC_EV_COUNT
};

/* Something that happened. Which fields mean something depends on `type`. */
struct cc_event {
    uint8_t type;   /* enum cc_event_type */
    uint8_t seat;   /* the acting seat; CC_NO_SEAT for scoring with no actor */
    uint8_t tile;   /* drawn/discarded/placed/dealt: tile type */
    uint8_t rot;    /* placed: rotation */
    int16_t x, y;   /* placed/deployed/built/withdrawn: square; scored: a square of it */
    uint8_t loc;    /* deployed/built/withdrawn/scored: a location of the feature */
    uint8_t kind;   /* scored/withdrawn: enum cc_kind (CC_KIND_COUNT + n for columns) */
    uint8_t column; /* scored: enum cc_column the points go to */
    uint8_t seats;  /* scored: bit mask of the seats that scored */
    int16_t points; /* scored: points for each scoring seat */
    uint16_t tiles; /* scored: tiles of the feature; hike: tiles entered */
    uint16_t count; /* scored: pennants / cities / animals / tokens, per rule */
    int16_t x2, y2; /* hike: where the hiker stops */
    uint8_t tokens[CC_MAX_PLAYERS][CC_CROP_COUNT]; /* hills farmland: tokens given per seat */
    uint8_t figure;                /* deployed/returned/removed: enum cc_piece_kind */
    uint8_t goods[CC_GOODS_COUNT]; /* goods taken: tokens by kind */
};

/* Events one action can cause: up to 200 set-aside tiles, then a final scoring with a
 * farm event per city (original edition) on a 201-tile board, comfortably bounded. */
#define CC_MAX_EVENTS 1536

/* A caller-owned buffer that actions append events to. */
struct cc_events {
    size_t n;                          /* events written */
    struct cc_event ev[CC_MAX_EVENTS]; /* the events */
};

/* A legal placement of a drawn (or hand) tile, with the follow-ups it allows. */
struct cc_placement {
    int16_t x, y;      /* square */
    uint8_t rot;       /* quarter turns clockwise */
    uint8_t tile;      /* tile type */
    uint16_t follower; /* locations where a follower may be deployed (bits) */
    uint16_t stable;   /* hills: locations where a stable may be built */
    uint16_t hike;     /* hills: bit 4*k+side: the k-th own hiker may walk out via side */
    uint16_t large;    /* inns: locations where the large follower may be deployed */
    uint16_t builder;  /* traders: locations where the builder may be deployed */
    uint16_t pig;      /* traders: locations where the pig may be deployed */
    /* 1 + the index of its frontier square when it was listed, a hint the follow-up pass
     * checks against x, y (one look-up saved); 0: none. */
    uint16_t square;
};

/* How a game ended (CC_RESULT_NONE while it runs). */
enum cc_result { CC_RESULT_NONE = 0, CC_RESULT_COMPLETED, CC_RESULT_RESIGNATION };

/* One past the last used entry of pieces[]: loops over the pieces stop there. */
static inline int cc_pieces_end(const struct cc_game *g)
{
    return g->pieces_used ? 64 - __builtin_clzll(g->pieces_used) : 0;
}

/* Whether seat `seat` has resigned. */
static inline bool cc_seat_resigned(const struct cc_game *g, unsigned seat)
{
    return seat < CC_MAX_PLAYERS && ((g->resigned >> seat) & 1u);
}

/* Whether `g` is played with hands of two instead of a draw step. */
static inline bool cc_hand_mode(const struct cc_game *g)
{
    return g->options.draw == CC_DRAW_HAND;
}

/* The tile type action `a` places: the named hand tile in the hand variant, else the drawn
 * tile. Only meaningful once the placement's tile has been validated. */
static inline uint8_t cc_turn_tile(const struct cc_game *g, const struct cc_action *a)
{
    return cc_hand_mode(g) ? a->tile : g->drawn;
}

#endif
