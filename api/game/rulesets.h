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

/* The description of ruleset `r`, or NULL out of range. */
const struct api_ruleset_info *api_ruleset_info(enum cc_ruleset r);

/* The words for option `id`, or NULL out of range. */
const struct api_option_info *api_option_info(enum cc_option_id id);

/* Whether the API offers option `id` in games of ruleset `r`: an option of the ruleset that
 * has its words here. The engine's options for the expansions of classic (expansions,
 * inn_cathedral_final) have none yet: the API refuses them as unknown fields and never
 * shows them. */
bool api_option_offered(enum cc_option_id id, enum cc_ruleset r);

/* Whether the API offers the tiles of set `s` (not yet those of the expansions of classic:
 * GET /v1/rulesets and its tiles list leave them out). */
bool api_set_offered(enum cc_set s);

/* The "options" array of GET /v1/rulesets for ruleset `r`, added to `arr`. */
void api_options_describe(struct cJSON *arr, enum cc_ruleset r);

#endif
