/* status.h: the engine's result codes, each with a stable snake_case name. */
#ifndef CC_STATUS_H
#define CC_STATUS_H

/*
 * Every way an engine call can fail. The names (cc_status_name) are part of the HTTP
 * contract: clients branch on them. Add new values at the end; never rename.
 */
enum cc_status {
    CC_OK = 0,
    /* setup */
    CC_ERR_BAD_PLAYER_COUNT, /* players outside 2..5 */
    CC_ERR_BAD_OPTION,       /* an option value the ruleset does not have */
    CC_ERR_UNKNOWN_TILE,     /* a start or deck tile id not in the ruleset */
    CC_ERR_DECK_TOO_LONG,    /* more than CC_MAX_DECK tiles */
    CC_ERR_BAD_RULESET,      /* no such ruleset */
    /* turn order */
    CC_ERR_GAME_FINISHED, /* the game is over */
    CC_ERR_WRONG_PHASE,   /* draw while a tile is drawn, or place before drawing */
    CC_ERR_NOT_YOUR_TURN, /* the acting seat is not the seat to move */
    /* placement */
    CC_ERR_BAD_ROTATION,        /* rotation outside 0..3 */
    CC_ERR_POSITION_TAKEN,      /* a tile already lies there */
    CC_ERR_NOT_ADJACENT,        /* no placed tile shares a side with the square */
    CC_ERR_EDGES_DO_NOT_MATCH,  /* a touching side differs */
    CC_ERR_RIVER_NOT_CONTINUED, /* a river tile that does not continue the river's open end */
    CC_ERR_RIVER_U_TURN,        /* the river would turn the same way twice in a row */
    /* follow-ups */
    CC_ERR_BAD_LOCATION,            /* not a location name / value */
    CC_ERR_NO_FEATURE_THERE,        /* no feature at that location of the tile (e.g. C) */
    CC_ERR_FEATURE_OCCUPIED,        /* the feature already holds a follower after joining */
    CC_ERR_NO_FOLLOWERS_LEFT,       /* the supply is empty */
    CC_ERR_RIVER_NOT_ALLOWED,       /* followers never go on the river */
    CC_ERR_NOT_ALLOWED_HERE,        /* this kind of piece cannot stand on this kind of feature */
    CC_ERR_FOLLOWUP_NOT_IN_RULESET, /* stable/hike/withdraw in a ruleset without them */
    CC_ERR_STABLE_TOO_CLOSE,        /* hills: a stable on this tile or one of its 8 neighbours */
    CC_ERR_NO_STABLES_LEFT,         /* hills: both stables built */
    CC_ERR_NO_HIKE_POSSIBLE,        /* hills: the hike is not allowed or would enter no tile */
    CC_ERR_NOT_YOUR_FOLLOWER,       /* discovery: the follower belongs to someone else */
    CC_ERR_NO_FOLLOWER_THERE,       /* hike/withdraw: no follower at that place */
    CC_ERR_TILE_NOT_IN_HAND,        /* discovery hand variant: the named tile is not held */
    CC_ERR_TILE_REQUIRED,           /* discovery hand variant: the placement must name a tile */
    CC_ERR_CORRUPT,                 /* a state or snapshot that breaks an invariant */

    /* setup again, added last so that no number moves */
    CC_ERR_RIVER_TILE_WITHOUT_RIVER, /* a river start or deck tile in a game without the River */
    CC_ERR_ALREADY_RESIGNED,         /* the seat resigned before (core/resign.c) */
    /* the expansions of classic (inns.c, traders.c) */
    CC_ERR_INCOMPATIBLE_OPTIONS, /* two options the rules do not combine */
    CC_ERR_TILE_NOT_IN_GAME,     /* an expansion's start or deck tile in a game without it */
    CC_ERR_FIGURE_NOT_IN_GAME,   /* a figure the game does not have (a builder without traders) */
    CC_ERR_NO_FIGURE_LEFT,       /* that figure is not in the player's supply */
    CC_ERR_NO_OWN_FOLLOWER,      /* builder/pig: the feature holds no follower of the player */
    CC_ERR_FEATURE_COMPLETED,    /* builder: the placement completes that road or city */
    CC_STATUS_COUNT
};

/* The stable snake_case name of `s` ("edges_do_not_match" ...); "unknown" if out of range. */
const char *cc_status_name(enum cc_status s);

/* A sentence a person can read about `s`. */
const char *cc_status_text(enum cc_status s);

#endif
