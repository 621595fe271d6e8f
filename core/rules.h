/* rules.h: what differs between rulesets, behind one table per ruleset (engine-internal). */
#ifndef CC_RULES_H
#define CC_RULES_H

#include <stdbool.h>

#include "game_types.h"

/* One ruleset's own parts; the shared machinery calls them. */
struct cc_rules {
    unsigned followers;      /* followers per player in the supply */
    unsigned stables;        /* stables per player */
    unsigned columns;        /* bit mask of enum cc_column on its scoreboard */
    unsigned follower_kinds; /* bit mask of enum cc_kind a follower may stand on */
    /* Sets up what the ruleset adds to a new game (token supplies ...); may be NULL. */
    void (*init)(struct cc_game *g);
    /* Scores what placing board tile `tile` completed (after a follower deployment). */
    void (*score_placement)(struct cc_game *g, unsigned tile, struct cc_events *ev);
    /*
     * The ruleset's own follow-ups (stable, hike, withdraw), or NULL if it has none.
     * check_followup validates `a` (whose placement is known to be legal) without
     * changing `g`; apply_followup carries it out on the placed board tile `tile`, once
     * before the scoring of the placement (after_scoring false) and once after.
     */
    enum cc_status (*check_followup)(const struct cc_game *g, const struct cc_action *a);
    void (*apply_followup)(struct cc_game *g, unsigned tile, const struct cc_action *a,
                           bool after_scoring, struct cc_events *ev);
    /* Adds the ruleset's own follow-ups to the masks of a legal placement (may be NULL). */
    void (*placement_followups)(const struct cc_game *g, struct cc_placement *p);
    /* Adds the final scoring to players[] (the game is not changed); events if ev. */
    void (*final_scoring)(const struct cc_game *g, struct cc_player *players, struct cc_events *ev);
};

/* The rules of `r`, or NULL when the engine does not have that ruleset. */
const struct cc_rules *cc_rules_of(enum cc_ruleset r);

/* Appends a zeroed event of `type` and returns it, or NULL when ev is NULL. */
struct cc_event *cc_emit(struct cc_events *ev, enum cc_event_type type);
/* Ends the game (game.c): final scoring into the players, CC_EV_GAME_FINISHED with the
 * winners, phase finished. A completed game and a resignation that leaves one seat in end
 * alike. */
void cc_finish_game(struct cc_game *g, struct cc_events *ev);

/* Appends an event of `type` about the piece that action `a` puts on a feature of `kind`
 * (its seat, square and location) and returns it, or NULL when ev is NULL. */
struct cc_event *cc_emit_piece(struct cc_events *ev, enum cc_event_type type,
                               const struct cc_action *a, unsigned kind);

/*
 * Appends a scoring event of `type` (feature_scored, final_scored ...) about the feature
 * at `loc` of board tile `tile`, and returns it (NULL when ev is NULL) for the caller to
 * add what else it knows.
 */
struct cc_event *cc_emit_score(struct cc_events *ev, enum cc_event_type type,
                               const struct cc_game *g, unsigned tile, unsigned loc,
                               enum cc_kind kind, enum cc_column column, unsigned seats, int points,
                               unsigned tiles, unsigned count);

/* The distinct complete features of board tile `tile` whose kind is in the mask `kinds`,
 * in the order of their first location clockwise from NW: their roots into roots[];
 * returns how many. The order decides who is served first when a supply runs short. */
unsigned cc_completed_on_tile(const struct cc_game *g, unsigned tile, unsigned kinds,
                              uint16_t roots[CC_MAX_TILE_FEATURES]);

/* Puts a new piece of `seat` at `loc` of board tile `tile` (a free piece slot must
 * exist: the supplies guarantee it) and returns it. The caller updates the supply. */
struct cc_piece *cc_piece_add(struct cc_game *g, unsigned seat, enum cc_piece_kind kind,
                              unsigned tile, unsigned loc);

/* Takes piece `pc` off the board (its slot freed). */
void cc_piece_remove(struct cc_game *g, struct cc_piece *pc);

/* Features by their roots, each at most once (final scorings visit a feature once). */
struct cc_root_set {
    uint16_t root[CC_MAX_PIECES]; /* in the order added */
    unsigned n;                   /* roots in root[] */
};

/* Adds `root` to `set` unless it is there already; true when it was added. */
bool cc_root_set_add(struct cc_root_set *set, uint16_t root);

/* Adds `points` in `column` to every seat in `seats`. */
void cc_award(struct cc_player *players, unsigned seats, int points, enum cc_column column);

/* The pieces standing on the feature with root `root`: count per seat into `per_seat`
 * (may be NULL); returns the total. */
unsigned cc_pieces_on(const struct cc_game *g, uint16_t root, uint8_t per_seat[CC_MAX_PLAYERS]);

/* The seats with the most followers on the feature `root` (0 when it has none). */
unsigned cc_majority(const struct cc_game *g, uint16_t root);

/* A location on the placed tile of node `n`'s feature, in board directions: the first
 * one clockwise from NW (the centre last). */
uint8_t cc_node_location(const struct cc_game *g, uint16_t node);

/*
 * Scores a feature completed during the game: `points` to its majority in `column`,
 * one CC_EV_FEATURE_SCORED (seat = the placing seat), then its followers go back to
 * their owners, each with a CC_EV_FOLLOWER_RETURNED.
 */
void cc_score_completed(struct cc_game *g, uint16_t root, enum cc_kind kind, int points,
                        unsigned tiles, unsigned count, enum cc_column column,
                        struct cc_events *ev);

/* Classic scoring (score_classic.c). */
void cc_classic_score_placement(struct cc_game *g, unsigned tile, struct cc_events *ev);
void cc_classic_final_scoring(const struct cc_game *g, struct cc_player *players,
                              struct cc_events *ev);

/* Over Hill and Dale (hills.c). */
void cc_hills_init(struct cc_game *g);
unsigned cc_hills_token_total(enum cc_crop c);
int cc_harvest_score(const uint8_t tokens[CC_CROP_COUNT]);
void cc_hills_score_placement(struct cc_game *g, unsigned tile, struct cc_events *ev);
void cc_hills_final_scoring(const struct cc_game *g, struct cc_player *players,
                            struct cc_events *ev);
enum cc_status cc_hills_check_followup(const struct cc_game *g, const struct cc_action *a);
void cc_hills_apply_followup(struct cc_game *g, unsigned tile, const struct cc_action *a,
                             bool after_scoring, struct cc_events *ev);
void cc_hills_placement_followups(const struct cc_game *g, struct cc_placement *p);

/* Carcassonne: The Discovery (score_discovery.c; the hand variant is hand.c). */
void cc_discovery_score_placement(struct cc_game *g, unsigned tile, struct cc_events *ev);
enum cc_status cc_discovery_check_followup(const struct cc_game *g, const struct cc_action *a);
void cc_discovery_apply_followup(struct cc_game *g, unsigned tile, const struct cc_action *a,
                                 bool after_scoring, struct cc_events *ev);
void cc_discovery_final_scoring(const struct cc_game *g, struct cc_player *players,
                                struct cc_events *ev);

/* Of the engine's public interface (game.h includes this header): */

/* The columns a ruleset scores, as a bit mask over enum cc_column. */
unsigned cc_ruleset_columns(enum cc_ruleset r);

/* Followers per player in the supply at the start of a ruleset's game. */
unsigned cc_ruleset_followers(enum cc_ruleset r);

/* The columns of game `g`'s scoreboard: its ruleset's and its expansions' (bit mask). */
unsigned cc_game_columns(const struct cc_game *g);

#endif
