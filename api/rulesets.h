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

/*
 * Decodes the "options" member `v` (NULL: absent) of a new game of ruleset `r` into `o`,
 * every option at its default unless given: unknown_field for a name the ruleset does not
 * have, bad_option for a value outside the option's, and a refused combination's code
 * with a detail naming both. Returns 0, or -1 with `err` filled in.
 */
int api_options_decode(const struct cJSON *v, enum cc_ruleset r, struct cc_options *o,
                       struct json_err *err);

/* Decodes member `c` as a value of option `d` into *value: true or false for a boolean,
 * a value's name for a choice, an array of value names for a set (bit i for values[i];
 * order and repeats do not matter); anything else is bad_option with a detail naming the
 * values. Returns 0, or -1 with `err` filled in. */
int api_option_value_decode(const struct cJSON *c, const struct cc_option_def *d, unsigned *value,
                            struct json_err *err);

/* The "options" array of GET /v1/rulesets for ruleset `r`, added to `arr`. */
void api_options_describe(struct cJSON *arr, enum cc_ruleset r);

#endif
