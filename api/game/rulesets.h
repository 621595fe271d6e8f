/* rulesets.h: what the API says about each ruleset and option, once: the descriptions of
 * GET /v1/rulesets, the decoding of "options", and the board picture's ruleset line and
 * key. The options themselves (names, values, defaults, rulesets, refusals) are the
 * engine's table (core/options.h); a new option is a row there and a row here. */
#ifndef API_RULESETS_H
#define API_RULESETS_H

#include "game.h"
#include "options.h"

struct cJSON;
struct json_err;

#define API_KEY_ITEMS 6 /* entries of a ruleset's key in the board picture */

/* The API's words for one option. */
struct api_option_info {
    const char *description;                  /* GET /v1/rulesets: what it does */
    const char *phrase[CC_MAX_OPTION_VALUES]; /* picture's ruleset line by value (a set: by
                                                 member, each present one); NULL: none */
    const char *key_sample; /* picture's key entry when on (its sample), or NULL */
    const char *key_label;  /* that entry's label */
};

/* The API's words for one ruleset. */
struct api_ruleset_info {
    const char *title;                     /* the game's name */
    const char *provenance;                /* "published" or "reconstruction" */
    unsigned stables;                      /* stables per player, 0 when the ruleset has none */
    int harvest;                           /* harvest tokens: held, in the supply, given */
    int hikes;                             /* placements list the hikes they allow */
    int withdrawals;                       /* placements list the withdrawals they allow */
    const char *key[API_KEY_ITEMS + 1][2]; /* the picture's key: {sample, label}, NULL-ended */
    int farmers_lie;                       /* the picture lays a follower on a field down */
    int stable_swatch;                     /* the key shows a stable beside the follower */
    const char *pieces;                    /* the key's words for the pieces */
};

/* The API's words for one kind of figure (enum cc_piece_kind). */
struct api_figure_info {
    const char *name;   /* "figure" of a placement body, a spot's "figures", a piece's
                           "figure" and follower_deployed's */
    const char *supply; /* the member of each player in the state: how many are left */
};

/* The words for figure `kind`, or NULL out of range. */
const struct api_figure_info *api_figure_info(enum cc_piece_kind kind);

/* The figure named `name` ("large" ...), or -1. */
int api_figure_parse(const char *name);

/* The description of ruleset `r`, or NULL out of range. */
const struct api_ruleset_info *api_ruleset_info(enum cc_ruleset r);

/* The words for option `id`, or NULL out of range. */
const struct api_option_info *api_option_info(enum cc_option_id id);

/* Whether the API offers option `id` in games of ruleset `r`: an option of the ruleset that
 * has its words here (an option without them is refused as an unknown field and never
 * shown). */
bool api_option_offered(enum cc_option_id id, enum cc_ruleset r);

/* Whether the API offers the tiles of set `s` (GET /v1/rulesets and its tiles list): every
 * set the engine has, the expansions' for games with them. */
bool api_set_offered(enum cc_set s);

/* The "options" array of GET /v1/rulesets for ruleset `r`, added to `arr`. */
void api_options_describe(struct cJSON *arr, enum cc_ruleset r);

#endif
