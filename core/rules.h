/* rules.h: what differs between rulesets, behind one table per ruleset (engine-internal). */
#ifndef CC_RULES_H
#define CC_RULES_H

#include <stdbool.h>

#include "game.h"

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

/* Adds `points` in `column` to every seat in `seats`. */
void cc_award(struct cc_player *players, unsigned seats, int points, enum cc_column column);

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

#endif
