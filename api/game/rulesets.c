/* rulesets.c: the API's one description of each ruleset and option (see rulesets.h). */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "rulesets.h"

static const struct api_option_info option_infos[CC_OPT_COUNT] = {
    [CC_OPT_EDITION] = {.description = "standard: 3 points per completed city for each farm; "
                                       "original: 4 per city, scored city by city, with the "
                                       "two-tile city rule.",
                        .phrase = {", standard edition", ", original edition"}},
    [CC_OPT_RIVER] = {.description = "Play with the River.",
                      .phrase = {NULL, ", with the River"},
                      .key_sample = "river",
                      .key_label = "river"},
    [CC_OPT_DRAW] = {.description = "pile: draw a tile each turn; hand: the hand-of-two variant.",
                     .phrase = {", draw pile", ", hand of two"}},
    [CC_OPT_EXPANSIONS] = {.description = "Expansions of classic, any of them: inns (Inns & "
                                          "Cathedrals: inns, cathedrals, the large follower), "
                                          "traders (Traders & Builders: goods, the builder, the "
                                          "pig; not with the original edition). With any, 2 to "
                                          "6 players.",
                           .phrase = {", Inns & Cathedrals", ", Traders & Builders"}},
    [CC_OPT_INN_FINAL] = {.description = "With inns: what an inn road or a cathedral city not "
                                         "completed scores at the end. zero: nothing; ignore: "
                                         "as a plain road or city (1 per tile and pennant).",
                          .phrase = {NULL, ", unfinished inns and cathedrals as plain"}},
};

static const struct api_ruleset_info ruleset_infos[CC_RULESET_COUNT] = {
    [CC_RULESET_CLASSIC] = {.title = "Carcassonne",
                            .provenance = "published",
                            .key = {{"city", "city"},
                                    {"road", "road"},
                                    {"field", "field"},
                                    {"monastery", "monastery"},
                                    {"pennant", "pennant"}},
                            .farmers_lie = 1,
                            .pieces = "farmers lie, the others stand"},
    [CC_RULESET_HILLS] = {.title = "Carcassonne: Over Hill and Dale",
                          .provenance = "reconstruction",
                          .stables = 2,
                          .harvest = 1,
                          .hikes = 1,
                          .key = {{"farmland", "farmland"},
                                  {"trail", "trail"},
                                  {"meadow", "meadow"},
                                  {"harvest", "harvest"},
                                  {"animals", "animals"}},
                          .stable_swatch = 1,
                          .pieces = "hiker or farmer, stable"},
    [CC_RULESET_DISCOVERY] = {.title = "Carcassonne: The Discovery",
                              .provenance = "reconstruction",
                              .key = {{"mountain", "mountain"},
                                      {"grass", "grassland"},
                                      {"sea", "sea"},
                                      {"port", "port city"}},
                              .pieces = "brigand, navigator or explorer",
                              .withdrawals = 1},
};

/* The figures: a follower (every ruleset), a stable (hills), and those the expansions of
 * classic bring (a game shows and takes only those it has: cc_figure_in_game()). */
static const struct api_figure_info figure_infos[CC_PIECE_KIND_COUNT] = {
    [CC_PIECE_FOLLOWER] = {.name = "follower", .supply = "followers"},
    [CC_PIECE_STABLE] = {.name = "stable", .supply = "stables"},
    [CC_PIECE_LARGE] = {.name = "large", .supply = "large"},
    [CC_PIECE_BUILDER] = {.name = "builder", .supply = "builder"},
    [CC_PIECE_PIG] = {.name = "pig", .supply = "pig"},
};

const struct api_figure_info *api_figure_info(enum cc_piece_kind kind)
{
    return (unsigned)kind < CC_PIECE_KIND_COUNT ? &figure_infos[kind] : NULL;
}

int api_figure_parse(const char *name)
{
    for (int k = 0; name && k < CC_PIECE_KIND_COUNT; k++)
        if (strcmp(name, figure_infos[k].name) == 0) return k;
    return -1;
}

const struct api_ruleset_info *api_ruleset_info(enum cc_ruleset r)
{
    return (unsigned)r < CC_RULESET_COUNT ? &ruleset_infos[r] : NULL;
}

const struct api_option_info *api_option_info(enum cc_option_id id)
{
    return (unsigned)id < CC_OPT_COUNT ? &option_infos[id] : NULL;
}

bool api_option_offered(enum cc_option_id id, enum cc_ruleset r)
{
    return cc_option_in_ruleset(id, r) && option_infos[id].description != NULL;
}

bool api_set_offered(enum cc_set s)
{
    return (unsigned)s < CC_SET_COUNT;
}

void api_options_describe(cJSON *arr, enum cc_ruleset r)
{
    for (unsigned i = 0; i < CC_OPT_COUNT; i++) {
        if (!api_option_offered((enum cc_option_id)i, r)) continue;
        const struct cc_option_def *d = cc_option_def((enum cc_option_id)i);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddItemToArray(arr, o);
        cJSON_AddStringToObject(o, "name", d->name);
        if (cc_option_is_bool(d)) {
            cJSON_AddStringToObject(o, "type", "boolean");
            cJSON_AddBoolToObject(o, "default", d->fallback != 0);
        } else {
            bool set = d->kind == CC_OPTION_SET;
            cJSON_AddStringToObject(o, "type", set ? "array" : "string");
            cJSON *vals = cJSON_AddArrayToObject(o, "values");
            for (unsigned k = 0; k < d->nvalues; k++)
                cJSON_AddItemToArray(vals, cJSON_CreateString(d->values[k]));
            if (set) {
                cJSON *def = cJSON_AddArrayToObject(o, "default");
                for (unsigned k = 0; k < d->nvalues; k++)
                    if (d->fallback >> k & 1u)
                        cJSON_AddItemToArray(def, cJSON_CreateString(d->values[k]));
            } else {
                cJSON_AddStringToObject(o, "default", d->values[d->fallback]);
            }
        }
        cJSON_AddStringToObject(o, "description", option_infos[i].description);
    }
}
